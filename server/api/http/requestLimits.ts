// How long a client may take to send a request, so that no connection is held open indefinitely
// by a client that sends slowly or not at all (a request body trickling one byte every 5 s was
// held for as long as the client liked). The values let a legitimate upload through on a slow
// link: the largest bodies are a 10 MB attachment and a 16 MB JSON report.
// - headers: 20 s from the first byte of a request (they fit in one packet; a slow link's round
//   trip is under 2 s);
// - a whole request: 10 minutes, which a 10 MB upload meets at 140 kbit/s (17 kB/s) and a 16 MB
//   report at 220 kbit/s: a slow mobile or congested link;
// - a body: at least 1 kB a second over every 10 s from the request's start (below that rate the
//   body is cut with 408 within about 11 s), far below any link that could send 10 MB in the time
//   above, and above what holds a connection for nothing (a byte every few seconds);
// - a connection with neither bytes in nor bytes out for 2 minutes is closed (a client that stops
//   reading a download, a connection that never sends a request);
// Node checks the first two every 2 s (its default is every 30 s).
import { STATUS_CODES, type Server } from 'node:http';
import { Socket } from 'node:net';
import type { FastifyHttpOptions, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const HEADERS_TIMEOUT_MS = 20_000;
export const REQUEST_TIMEOUT_MS = 10 * 60_000;
export const IDLE_CONNECTION_MS = 2 * 60_000;
export const BODY_RATE_WINDOW_MS = 10_000;
export const MIN_BODY_BYTES_PER_SECOND = 1024;
const CHECK_EVERY_MS = 1_000;

const SLOW_BODY = `The request body arrived too slowly (under ${MIN_BODY_BYTES_PER_SECOND} bytes a second for ${BODY_RATE_WINDOW_MS / 1000} s); send it again`;
const TOO_LONG = `The request took too long to arrive (headers within ${HEADERS_TIMEOUT_MS / 1000} s, the whole request within ${REQUEST_TIMEOUT_MS / 60_000} minutes); send it again`;

/** What Node's HTTP server finds wrong with a client before fastify sees a request, as the API's error body. */
function clientErrorAnswer(error: NodeJS.ErrnoException): { status: number; message: string } {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, message: TOO_LONG };
  if (error.code === 'HPE_HEADER_OVERFLOW') return { status: 431, message: 'The request headers are too large' };
  return { status: 400, message: 'The request is not valid HTTP' };
}

/** The fastify options that bound a request's time. */
export const requestTimeOptions = {
  requestTimeout: REQUEST_TIMEOUT_MS,
  connectionTimeout: IDLE_CONNECTION_MS,
  http: { headersTimeout: HEADERS_TIMEOUT_MS, connectionsCheckingInterval: 2_000 },
  clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket) {
    // A connection reset is nothing to answer: the client is gone.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    if (socket.writable) {
      const { status, message } = clientErrorAnswer(error);
      const body = JSON.stringify({ message });
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
          `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(error);
  },
} satisfies FastifyHttpOptions<Server>;

interface Upload {
  request: FastifyRequest;
  reply: FastifyReply;
  socket: Socket;
  windowStart: number;
  bytesAtWindowStart: number;
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** Ends a request whose body stalled: with 408 if no answer has begun, else by closing its connection. */
function cut({ reply, socket }: Upload): void {
  if (reply.raw.headersSent) socket.destroy();
  else void reply.code(408).header('connection', 'close').send({ message: SLOW_BODY });
}

/**
 * Cuts request bodies that arrive slower than the minimum rate. Bytes count as they reach the
 * socket; a window in which the server was not reading (bytes waiting for it, or its event loop
 * held up) is not held against the client.
 */
export function guardBodyRate(app: FastifyInstance): void {
  const uploads = new Set<Upload>();
  let timer: NodeJS.Timeout | undefined;
  let lastCheck = 0;
  const check = () => {
    const now = Date.now();
    const loopHeldUp = now - lastCheck > 2 * CHECK_EVERY_MS;
    lastCheck = now;
    for (const upload of uploads) {
      const { request, socket } = upload;
      if (request.raw.complete || socket.destroyed) {
        uploads.delete(upload);
        continue;
      }
      if (!loopHeldUp && now - upload.windowStart < BODY_RATE_WINDOW_MS) continue;
      const arrived = socket.bytesRead - upload.bytesAtWindowStart;
      const waitingForServer = request.raw.readableLength > 0;
      if (!loopHeldUp && !waitingForServer && arrived < (MIN_BODY_BYTES_PER_SECOND * BODY_RATE_WINDOW_MS) / 1000) {
        uploads.delete(upload);
        cut(upload);
        continue;
      }
      upload.windowStart = now;
      upload.bytesAtWindowStart = socket.bytesRead;
    }
    if (uploads.size === 0) {
      clearInterval(timer);
      timer = undefined;
    }
  };
  app.addHook('onRequest', (request, reply, done) => {
    const socket = request.raw.socket;
    // Requests made in-process (the web pages read the API so) have no socket and no body.
    if (hasBody(request) && socket instanceof Socket) {
      uploads.add({ request, reply, socket, windowStart: Date.now(), bytesAtWindowStart: socket.bytesRead });
      if (timer === undefined) {
        lastCheck = Date.now();
        timer = setInterval(check, CHECK_EVERY_MS).unref();
      }
    }
    done();
  });
}
