/**
 * Model files from the local disk: a tfjs IO handler for a graph model (model.json and its weight
 * shards) and the `file://` load router that serves it on the wasm and cpu backends (models.ts).
 * Nothing is fetched from the network: the router takes only `file://` URLs.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs-core';

interface WeightsManifestGroup {
  paths: string[];
  weights: tf.io.WeightsManifestEntry[];
}
interface ModelJson {
  modelTopology: unknown;
  weightsManifest: WeightsManifestGroup[];
  format?: string;
  generatedBy?: string;
  convertedBy?: string;
  signature?: unknown;
  userDefinedMetadata?: Record<string, unknown>;
  modelInitializer?: unknown;
}

/** tfjs IOHandler that reads a graph model (model.json + shards) from the local file system. */
export function fileHandler(url: string): tf.io.IOHandler {
  const jsonPath = fileURLToPath(url);
  return {
    load: async (): Promise<tf.io.ModelArtifacts> => {
      const json = JSON.parse(readFileSync(jsonPath, 'utf8')) as ModelJson;
      const dir = path.dirname(jsonPath);
      const specs: tf.io.WeightsManifestEntry[] = [];
      const buffers: Buffer[] = [];
      for (const group of json.weightsManifest) {
        specs.push(...group.weights);
        for (const p of group.paths) buffers.push(readFileSync(path.join(dir, p)));
      }
      const all = Buffer.concat(buffers);
      const weightData = all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength) as ArrayBuffer;
      return {
        modelTopology: json.modelTopology as tf.io.ModelArtifacts['modelTopology'],
        weightSpecs: specs,
        weightData,
        format: json.format,
        generatedBy: json.generatedBy,
        convertedBy: json.convertedBy ?? undefined,
        signature: json.signature as object | undefined,
        userDefinedMetadata: json.userDefinedMetadata as tf.io.ModelArtifacts['userDefinedMetadata'],
        modelInitializer: json.modelInitializer as object | undefined,
      };
    },
  };
}

let routerRegistered = false;
/** Set once tfjs-node is loaded in this process: it registers its own file:// router on the same
 *  tfjs-core (pnpm shares one instance), and two routers for one URL make every model load fail. */
let nativeRouterPresent = false;

/** tfjs-node is loaded in this process: its own file:// router serves the models, ours stands down. */
export function nativeFileRouter(): void {
  nativeRouterPresent = true;
}

export function registerFileRouter(): void {
  if (routerRegistered) return;
  // tfjs routers return null for URLs they do not handle (the IORouter type omits that)
  const router = ((url: string | string[]) => {
    const u = Array.isArray(url) ? url[0] : url;
    if (!nativeRouterPresent && typeof u === 'string' && u.startsWith('file://')) return fileHandler(u);
    return null;
  }) as unknown as Parameters<typeof tf.io.registerLoadRouter>[0];
  tf.io.registerLoadRouter(router);
  routerRegistered = true;
}
