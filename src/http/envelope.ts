// Writing replies: the error envelope of decisions.md, and JSON with its content type.
import type { FastifyReply } from 'fastify';

export function sendJson(reply: FastifyReply, status: number, body: unknown) {
  return reply.status(status).type('application/json; charset=utf-8').send(JSON.stringify(body));
}

/** `{ success: false, error, metadata }`: nothing is charged for an error */
export function errorEnvelope(h: { code: string; message: string; details?: unknown }, seconds: number) {
  return {
    success: false,
    error: { code: h.code, message: h.message, ...(h.details ? { details: h.details } : {}) },
    metadata: { credits_used: 0, processing_time: Number(seconds.toFixed(4)) },
  };
}
