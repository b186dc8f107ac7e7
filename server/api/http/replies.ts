// Success bodies the hosted service sends as JSON strings (reference §1.3): fastify would send a
// bare string as text/plain, and clients read only JSON.
import type { FastifyReply } from 'fastify';

export function sendJsonString(reply: FastifyReply, status: number, text: string): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(JSON.stringify(text));
}
