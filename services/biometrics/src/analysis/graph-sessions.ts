/**
 * On a native backend, each of Human's models runs as one TensorFlow session of the same graph
 * instead of op by op. tfjs-node executes a graph model eagerly: one TensorFlow call per op, no
 * graph optimisation; a session runs the whole graph in one call with TensorFlow's optimiser
 * (measured here, one thread: facemesh 30 → 6 ms, iris 33 → 4 ms, blazeface 56 → 30 ms, faceres
 * 51 → 27–35 ms; docs/decisions.md "Verdict speed: graph sessions").
 *
 * The sessions are SavedModels that `services/biometrics/tfgraph/convert.py` makes from Human's own
 * model files at install time (scripts/tfjs-native.sh, under the binding's `deps/graphs/`). Each is
 * used only when
 * - its `source.sha256` is the sha256 of the weights Human loaded (a conversion of other weights is ignored),
 * - its signature names every output the graph model has, and
 * - on a fixed input it computes what the graph model computes (every output within 1e-3 of the
 *   largest magnitude), checked here at start.
 * Then Human's GraphModel keeps its object and its `inputs`/`outputs`, and only `execute` calls the
 * session (same output order). Otherwise that model stays eager, and the reason is returned.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The part of tfjs's GraphModel this module uses. */
interface GraphModelLike {
  inputs: { name: string; shape?: number[] }[];
  outputNodes: string[];
  execute(x: unknown): unknown;
}
interface TensorLike {
  shape: number[];
  dataSync(): Float32Array | Int32Array | Uint8Array;
  dispose(): void;
}
/** tfjs-node's `node` namespace (loadSavedModel) and the tfjs functions used. */
export interface NativeTf {
  node: {
    loadSavedModel(dir: string, tags?: string[], signature?: string): Promise<SavedModelLike>;
  };
  tensor(values: Float32Array, shape: number[], dtype: 'float32'): TensorLike;
  dispose(x: unknown): void;
}
interface SavedModelLike {
  outputs: { name: string }[] | unknown;
  predict(inputs: Record<string, unknown>): unknown;
  dispose(): void;
}

export interface SessionState {
  name: string;
  runtime: 'session' | 'eager';
  /** why it stays eager */
  reason?: string;
}

/** Largest |eager − session| allowed, relative to the largest |eager| value of that output (at least 1). */
const TOLERANCE = 1e-3;

/** Keys a session's outputs go by: the graph model's output names without `:0`. */
const key = (name: string) => name.split(':')[0]!;

/** Deterministic input in [0, 1) of the model's input shape (a free batch dimension taken as 1). */
function probeInput(tf: NativeTf, shape: number[]): TensorLike {
  const s = shape.map((d) => (d > 0 ? d : 1));
  const n = s.reduce((a, b) => a * b, 1);
  const v = new Float32Array(n);
  let x = 12345;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    v[i] = x / 2147483648;
  }
  return tf.tensor(v, s, 'float32');
}

const asList = (out: unknown): TensorLike[] => (Array.isArray(out) ? (out as TensorLike[]) : [out as TensorLike]);

/** Largest relative difference between two lists of outputs, or the reason they cannot be compared. */
export function outputsDiffer(a: TensorLike[], b: TensorLike[]): string | null {
  if (a.length !== b.length) return `${a.length} outputs against ${b.length}`;
  for (let k = 0; k < a.length; k++) {
    if (a[k]!.shape.join('x') !== b[k]!.shape.join('x')) return `output ${k}: shape ${a[k]!.shape} against ${b[k]!.shape}`;
    const x = a[k]!.dataSync();
    const y = b[k]!.dataSync();
    let scale = 1;
    let worst = 0;
    for (let i = 0; i < x.length; i++) {
      scale = Math.max(scale, Math.abs(x[i]!));
      worst = Math.max(worst, Math.abs(x[i]! - y[i]!));
    }
    if (!(worst <= TOLERANCE * scale)) return `output ${k}: differs by ${worst.toExponential(2)} (scale ${scale.toFixed(1)})`;
  }
  return null;
}

/**
 * Give each model in `models` whose checked conversion is in `dir` a session. `weights` maps a
 * model name to its weights file (its sha256 must match the conversion's).
 */
export async function attachGraphSessions(
  tf: NativeTf,
  dir: string,
  models: Record<string, GraphModelLike | null | undefined>,
  weights: Record<string, string>,
): Promise<SessionState[]> {
  const out: SessionState[] = [];
  for (const [name, g] of Object.entries(models)) {
    if (!g) continue;
    const at = path.join(dir, name);
    const eager = (reason: string) => out.push({ name, runtime: 'eager', reason });
    if (!existsSync(path.join(at, 'saved_model.pb'))) {
      eager(`no conversion in ${at}`);
      continue;
    }
    const want = readFileSync(path.join(at, 'source.sha256'), 'utf8').trim();
    const have = createHash('sha256').update(readFileSync(weights[name]!)).digest('hex');
    if (want !== have) {
      eager('the conversion was made from other weights');
      continue;
    }
    let sm: SavedModelLike;
    try {
      sm = await tf.node.loadSavedModel(at, ['serve'], 'serving_default');
    } catch (e) {
      eager(`the session does not load: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
      continue;
    }
    const inputName = key(g.inputs[0]!.name);
    const names = g.outputNodes.map(key);
    const run = (x: unknown): TensorLike[] => {
      const r = sm.predict({ [inputName]: x }) as Record<string, TensorLike>;
      return names.map((n) => r[n]!);
    };
    const x = probeInput(tf, g.inputs[0]!.shape ?? []);
    let why: string | null;
    try {
      const a = asList(g.execute(x));
      const b = run(x);
      why = b.some((t) => !t) ? `the session lacks an output of ${names.join(', ')}` : outputsDiffer(a, b);
      tf.dispose([...a, ...b.filter(Boolean)]);
    } catch (e) {
      why = `the check failed: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`;
    } finally {
      x.dispose();
    }
    if (why) {
      sm.dispose();
      eager(why);
      continue;
    }
    // the graph model's own contract: one tensor for one output, else the list in outputNodes order
    g.execute = (input: unknown) => {
      const r = run(input);
      return r.length === 1 ? r[0] : r;
    };
    out.push({ name, runtime: 'session' });
  }
  return out;
}
