// A webhook receiver on loopback, the one the tests share: it records every request it answers,
// and can answer with chosen statuses, hold requests unanswered (a slow target) or be "down"
// (every connection reset at once) without giving up its port, so a test never closes a port and
// hopes to get it back.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery {
  /** The request's path (the receiver answers on any). */
  path: string;
  headers: IncomingHttpHeaders;
  text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  body: unknown;
  /** When it arrived, in Unix seconds, as the server's timestamps are. */
  at: number;
}

/** How the receiver treats the next requests. */
export type Behaviour =
  /** Answers with this status (recording the request), or with the status the function picks. */
  | { answer: number | ((delivery: Delivery) => number) }
  /** Keeps each request unanswered until released or closed. */
  | { hold: true }
  /** Resets every connection as it is made: a target that is down. */
  | { down: true };

export class WebhookReceiver {
  readonly deliveries: Delivery[] = [];
  /** Requests that arrived while holding. */
  heldCount = 0;
  private behaviour: Behaviour;
  private readonly held: ServerResponse[] = [];
  private readonly server = createServer((request, response) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (text += chunk));
    request.on('end', () => this.answer(request.url ?? '/', request.headers, text, response));
  });

  private constructor(behaviour: Behaviour) {
    this.behaviour = behaviour;
    this.server.on('connection', (socket) => {
      if ('down' in this.behaviour) socket.resetAndDestroy();
    });
  }

  /** A receiver listening on a free loopback port, answering 200 unless told otherwise. */
  static async start(behaviour: Behaviour = { answer: 200 }): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver(behaviour);
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** The URL of `path` on this receiver. */
  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Changes how the next requests are treated; requests held so far are dropped unanswered. */
  behave(behaviour: Behaviour): void {
    this.behaviour = behaviour;
    for (const response of this.held.splice(0)) response.destroy();
  }

  async close(): Promise<void> {
    this.behave({ down: true });
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private answer(path: string, headers: IncomingHttpHeaders, text: string, response: ServerResponse): void {
    if ('hold' in this.behaviour) {
      this.heldCount += 1;
      this.held.push(response);
      return;
    }
    if ('down' in this.behaviour) {
      response.destroy();
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const delivery: Delivery = { path, headers, text, body, at: Date.now() / 1000 };
    this.deliveries.push(delivery);
    const { answer } = this.behaviour;
    response.statusCode = typeof answer === 'number' ? answer : answer(delivery);
    response.end();
  }
}
