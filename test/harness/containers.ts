/** Real infrastructure in containers, for machines with a Docker engine. */
import { GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';
import type { InfraUrls } from './local-infra.js';

export async function startContainers(): Promise<{ urls: InfraUrls; stop(): Promise<void> }> {
  const s3Secret = 'signet-test-s3-secret';
  const started: StartedTestContainer[] = await Promise.all([
    new GenericContainer('mongo:7.0').withExposedPorts(27017).withWaitStrategy(Wait.forListeningPorts()).start(),
    new GenericContainer('nats:2.10').withCommand(['-js']).withExposedPorts(4222).start(),
    new GenericContainer('redis:7.2').withExposedPorts(6379).start(),
    new GenericContainer('minio/minio:RELEASE.2025-04-22T22-12-26Z')
      .withCommand(['server', '/data'])
      .withEnvironment({ MINIO_ROOT_USER: 'signet', MINIO_ROOT_PASSWORD: s3Secret })
      .withExposedPorts(9000)
      .withWaitStrategy(Wait.forHttp('/minio/health/ready', 9000))
      .start(),
    new GenericContainer('axllent/mailpit:v1.27').withExposedPorts(1025, 8025).start(),
  ]);
  const [mongo, nats, redis, minio, mailpit] = started as [
    StartedTestContainer,
    StartedTestContainer,
    StartedTestContainer,
    StartedTestContainer,
    StartedTestContainer,
  ];
  const hp = (c: StartedTestContainer, p: number) => `${c.getHost()}:${c.getMappedPort(p)}`;
  return {
    urls: {
      MONGO_URL: `mongodb://${hp(mongo, 27017)}/`,
      NATS_URL: `nats://${hp(nats, 4222)}`,
      REDIS_URL: `redis://${hp(redis, 6379)}`,
      S3_ENDPOINT: `http://${hp(minio, 9000)}`,
      S3_ACCESS_KEY: 'signet',
      S3_SECRET_KEY: s3Secret,
      SMTP_URL: `smtp://${hp(mailpit, 1025)}`,
      MAILPIT_URL: `http://${hp(mailpit, 8025)}`,
    },
    async stop() {
      await Promise.all(started.map((c) => c.stop()));
    },
  };
}
