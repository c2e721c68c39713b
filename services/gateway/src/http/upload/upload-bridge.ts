import busboy from 'busboy';
import type { Readable } from 'node:stream';
import type { Request } from 'express';
import type { ClientStream } from '@signet/kit';
import { RpcError } from '@signet/kit';
import { badRequest, HttpError, httpStatusOf } from '../errors.js';
import { C0_CONTROL, textError, textProblem } from '../text.js';

/**
 * After refusing an upload early: how long, and how much of the rest, is read and discarded before
 * closing. The byte bound must exceed what is already in flight when the client reads the answer —
 * its socket's send buffer and ours can hold several MB on a fast link — or the close is a reset
 * that can destroy the unread answer (1 MB was exceeded on loopback: ECONNRESET instead of the 409).
 */
const LINGER_MS = 5_000;
const LINGER_BYTES = 16 * 1024 * 1024;

/** How one file of the form becomes messages of the call. Each callback may throw an HttpError to refuse. */
export type FileSink<W> = {
  /** Bytes as they arrive: the messages to forward now (none while a sink gathers a larger message). */
  data(chunk: Buffer): W[];
  /** The file is complete: its last messages. */
  end(): W[];
  /** The 413 detail when busboy's `fileSize` limit cuts the file. */
  tooLarge: string;
};

/** What a multipart form is and how it maps onto one client-streaming call. */
export type UploadForm<W, Res> = {
  limits: busboy.Limits;
  /** A declared Content-Length over `bytes` is refused with 413 before anything is read. */
  maxDeclared?: { bytes: number; detail: string };
  /** 400 details: the headers cannot be parsed; the body is malformed; busboy's count limits (unset: ignored). */
  details: { unparsable: string; malformed: string; partsLimit?: string; filesLimit?: string; fieldsLimit?: string };
  /** A text field: keep it, or throw. */
  field(name: string, value: string, info: busboy.FieldInfo): void;
  /** A file starts: check it may come now (throw otherwise) and say how its bytes are forwarded. */
  file(name: string, info: busboy.FileInfo): FileSink<W>;
  /** Opens the call (a kit `clientStream` with its deadline); done at the first file. */
  open(): ClientStream<W, Res>;
  /** The call's first message, written as it opens. */
  begin(): W;
  /** The body is complete: the last messages, or throw (a required part missing, a bad field). */
  end(): W[];
  /** A refusal cut an upload still arriving; given the HTTP status. */
  onCut?(status: number): void;
};

/**
 * The one busboy → gRPC client-stream bridge. Files are forwarded strictly one after another as their
 * bytes arrive, with backpressure both ways (a full call pauses the file; nothing is buffered beyond
 * what a sink gathers). The response is awaited once the body is complete.
 *
 * Any refusal — the form's (sizes, order, a bad field), the service's (answered as soon as it has read
 * what it needs, e.g. a stale nonce), or the client going away — settles at once, while the body may
 * still be arriving: the call is cancelled (the service removes what it stored), the upload is detached
 * and left unread, and the answer carries `Connection: close` (docs/decisions.md "Early refusal of an
 * upload"). Errors are HttpError or RpcError, answered `{"detail": ...}` by the error boundary.
 */
export function bridgeUpload<W, Res>(req: Request, form: UploadForm<W, Res>): Promise<Res> {
  const declared = Number(req.headers['content-length']);
  if (form.maxDeclared && declared > form.maxDeclared.bytes) {
    const e = new HttpError(413, form.maxDeclared.detail);
    closeUpload(req, e, form.onCut);
    return Promise.reject(e);
  }
  return new Promise<Res>((resolve, reject) => new UploadBridge(req, form, resolve, reject).start());
}

type FileStream = Readable & { truncated?: boolean };

/** One upload on its way: the call, the first refusal, and whether the body and the response are complete. */
class UploadBridge<W, Res> {
  private failure: unknown;
  private call: ClientStream<W, Res> | undefined;
  private bodyDone = false;
  private response: { value: Res } | undefined;
  /** The files in their turn: each waits for the one before it to end. */
  private pumping = Promise.resolve();
  private bb: busboy.Busboy | undefined;

  constructor(
    private readonly req: Request,
    private readonly form: UploadForm<W, Res>,
    private readonly resolve: (value: Res) => void,
    private readonly reject: (e: unknown) => void,
  ) {}

  /** Parses the body as it arrives: its fields, its files, its limits, its end, and the client leaving. */
  start(): void {
    const { req, form } = this;
    let bb: busboy.Busboy;
    try {
      // File names (`filename`, and `filename*` per RFC 5987/6266) are UTF-8 as browsers and curl send
      // them; busboy's default reads a plain `filename` as Latin-1, which stored "Łódź" as mojibake.
      bb = busboy({ headers: req.headers, limits: form.limits, defParamCharset: 'utf8' });
    } catch {
      return this.fail(badRequest(form.details.unparsable));
    }
    this.bb = bb;
    bb.on('field', (name, value, info) => {
      if (!this.failure) this.attempt(() => form.field(name, checkedText(name, value), info));
    });
    bb.on('file', (name, stream, info) => this.file(name, stream, info));
    const { partsLimit, filesLimit, fieldsLimit, malformed } = form.details;
    if (partsLimit) bb.on('partsLimit', () => this.fail(badRequest(partsLimit)));
    if (filesLimit) bb.on('filesLimit', () => this.fail(badRequest(filesLimit)));
    if (fieldsLimit) bb.on('fieldsLimit', () => this.fail(badRequest(fieldsLimit)));
    bb.on('error', () => this.fail(badRequest(malformed)));
    bb.on('close', () => void this.pumping.then(() => this.finish()));
    // The client went away before the body was complete: stop, and let the service clean up. A client
    // gone while the route's guards were still awaited (authentication, rate limits) has already closed
    // the request: its body will never end, so that request is settled here rather than waited on.
    if (req.destroyed) return this.fail(new HttpError(400, 'the request was aborted'));
    req.on('close', () => {
      if (!req.complete) this.fail(new HttpError(400, 'the request was aborted'));
    });
    req.pipe(bb);
  }

  /** A file starts: the form checks it, the call opens at the first one, and it waits its turn. */
  private file(name: string, stream: FileStream, info: busboy.FileInfo): void {
    // Busboy destroys a file's stream with an error when the body ends before the file does. A stream
    // still waiting its turn (or refused) has no listener yet, and an 'error' without one would be
    // thrown out of the process: the refusal itself is busboy's own 'error', handled in start().
    stream.on('error', () => undefined);
    if (this.failure) return void stream.resume();
    const sink = this.attempt(() => this.form.file(checkedFileName(name, info), info));
    if (!sink) return void stream.resume();
    if (!this.call) this.open();
    // Strictly one file after another: busboy may announce the next file while this one's stream
    // still holds buffered bytes, so each file waits for the previous one to end.
    this.pumping = this.pumping.then(() => this.pump(stream, sink));
  }

  /** Forwards one file's bytes through its sink as they arrive; settles when the file ends or is cut. */
  private pump(stream: FileStream, sink: FileSink<W>): Promise<void> {
    return new Promise<void>((done) => {
      if (stream.destroyed) return done(); // cut before its turn: it will never end
      stream.on('limit', () => this.fail(new HttpError(413, sink.tooLarge)));
      stream.on('error', () => done());
      stream.on('end', () => {
        if (!this.failure && stream.truncated) this.fail(new HttpError(413, sink.tooLarge));
        if (!this.failure) this.forward(this.attempt(() => sink.end()) ?? []);
        done();
      });
      stream.on('data', (chunk: Buffer) => {
        if (this.failure) return;
        const out = this.attempt(() => sink.data(chunk));
        if (out)
          this.forward(
            out,
            () => stream.pause(),
            () => stream.resume(),
          );
      });
    });
  }

  /** The body is complete and every file forwarded: the form's last messages end the call. */
  private finish(): void {
    if (this.failure) return;
    const last = this.attempt(() => this.form.end());
    if (!last) return;
    const c = this.call ?? this.open();
    this.forward(last);
    c.end();
    this.bodyDone = true;
    this.settle();
  }

  private open(): ClientStream<W, Res> {
    const c = this.form.open();
    this.call = c;
    c.result.then(
      (value) => {
        this.response = { value };
        this.settle();
      },
      // The service may answer before the upload is over: answer the client now. A cancellation we
      // asked for carries no information; `fail` keeps our reason.
      (e: unknown) => this.fail(e),
    );
    c.write(this.form.begin());
    return c;
  }

  /** Writes messages; a full call pauses the source until it drains. */
  private forward(messages: W[], pause?: () => void, resume?: () => void): void {
    const call = this.call;
    if (this.failure || !call) return;
    let full = false;
    for (const m of messages) full = !call.write(m) || full;
    if (full && pause && resume) {
      pause();
      call.onceDrain(resume);
    }
  }

  /** Runs a form callback; a throw refuses the upload. */
  private attempt<T>(fn: () => T): T | undefined {
    try {
      return fn();
    } catch (e) {
      this.fail(e);
      return undefined;
    }
  }

  /** The first refusal wins and is answered now; nothing more is read or forwarded. */
  private fail(e: unknown): void {
    if (this.failure) return;
    this.failure = e;
    this.call?.cancel();
    if (this.bb) {
      this.req.unpipe(this.bb);
      this.bb.removeAllListeners('file');
    }
    if (e instanceof HttpError || e instanceof RpcError) closeUpload(this.req, e, this.form.onCut);
    this.reject(e);
  }

  private settle(): void {
    if (!this.failure && this.bodyDone && this.response) this.resolve(this.response.value);
  }
}

/** A text part obeys the one text rule (text.ts), its name too: else 400 naming the part. */
function checkedText(name: string, value: string): string {
  const problem = textProblem(name) ?? textProblem(value);
  if (problem) throw textError(textProblem(name) ? 'part name' : name, problem, 'multipart');
  return value;
}

/**
 * A file part's name and file name carry no C0 control character or DEL (U+0000 never reaches a
 * store). C1 is not checked here: the route decides how the file name's bytes are decoded.
 */
function checkedFileName(name: string, info: busboy.FileInfo): string {
  if (textProblem(name)) throw textError('part name', textProblem(name)!, 'multipart');
  const c = C0_CONTROL.exec(info.filename ?? '');
  if (c)
    throw textError(
      `${name} file name`,
      `must not contain control characters (U+${c[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')})`,
      'multipart',
    );
  return name;
}

/**
 * Leaves the rest of a refused upload unread: the answer (still to be sent by the route or the error
 * boundary) says `Connection: close`, and once it is flushed the connection is closed instead of the
 * body being read to its end for a next request. A body already complete keeps its connection.
 */
function closeUpload(req: Request, err: HttpError | RpcError, onCut?: (status: number) => void): void {
  if (req.complete) return;
  const res = req.res;
  if (res && !res.headersSent) res.setHeader('Connection', 'close');
  req.pause();
  // Node ends a `Connection: close` answer with socket.destroySoon(): FIN, then a close that, with the
  // upload still arriving, is a TCP reset — which can reach the client before it has read the answer
  // (Node's own client then reports EPIPE, not the 409). A lingering close instead: FIN after the
  // answer, then what still arrives is discarded for at most LINGER_MS or LINGER_BYTES, then closed.
  const socket = req.socket;
  socket.destroySoon = () => {
    socket.end();
    let budget = LINGER_BYTES;
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    socket.once('close', () => clearTimeout(timer));
    req.on('data', (chunk: Buffer) => {
      budget -= chunk.length;
      if (budget < 0) socket.destroy();
    });
    req.resume();
  };
  onCut?.(err instanceof HttpError ? err.status : httpStatusOf(err));
}
