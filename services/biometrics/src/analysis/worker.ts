/** Worker thread: loads the models once, then serves detection requests from the pool (runs of frames: detectRunLocal). */
import { parentPort, workerData } from 'node:worker_threads';
import { detectRunLocal, type DetectOpts } from './detect.js';
import type { RgbImage } from './media.js';
import { loadModels, type LoadModelsOptions } from './models.js';

interface DetectMsg {
  type: 'detect';
  id: number;
  frames: RgbImage[];
  opts: DetectOpts[];
}

const port = parentPort;
if (!port) throw new Error('worker.ts must run in a worker thread');
// workerData.backend is the backend the main thread resolved (never `auto`): no probing here.
const models = await loadModels({ ...(workerData as LoadModelsOptions), workers: 0 });
port.postMessage({ type: 'ready', models: models.models, sessions: models.sessions });
port.on('message', async (msg: DetectMsg) => {
  if (msg.type !== 'detect') return;
  try {
    const results = await detectRunLocal(models, msg.frames, msg.opts);
    port.postMessage({ type: 'result', id: msg.id, results });
  } catch (e) {
    port.postMessage({ type: 'error', id: msg.id, message: e instanceof Error ? e.message : String(e) });
  }
});
