// What is refused before a request reaches a route, answered in the error envelope like
// everything else: Node's HTTP parser errors (headers over the limit, a malformed header or
// request line, a request not received in time) and Fastify's URL errors (a path that does not
// decode, a parameter over the length limit).
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import { formatBytes } from '../contract/endpoints.js';
import { errorEnvelope, sendJson } from './envelope.js';
import { echoedRequestId, newRequestId } from './request-id.js';

/** Node's limit on the request line and headers together (the default of --max-http-header-size) */
export const HEADER_LIMIT = 16 * 1024;

/** Node's parser errors, written straight to the socket, which is then closed. */
export function clientErrorHandler(logger: FastifyBaseLogger) {
  return (err: Error & { code?: string }, socket: Socket) => {
    // a reset connection has nobody to answer
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, message] =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, `Request headers are larger than ${formatBytes(HEADER_LIMIT)}`]
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'The request was not received in time']
          : [400, 'Malformed HTTP request: the request line or a header could not be read'];
    logger.debug({ code: err.code, status }, 'malformed request refused');
    // as Node itself: no answer when a response of this connection has begun to be written
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && !inFlight?.headersSent) {
      const body = JSON.stringify(errorEnvelope({ code: 'BAD_REQUEST', message }, 0));
      socket.end(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
          'Content-Type: application/json; charset=utf-8\r\n' +
          `Content-Length: ${Buffer.byteLength(body)}\r\n` +
          `X-Request-Id: ${newRequestId()}\r\n` +
          'Connection: close\r\n\r\n' +
          body,
      );
    }
    socket.destroySoon();
  };
}

/** a path parameter that does not decode (/docs/assets/%ff), or one over the length limit
 *  (answered before routing: no hook or error handler runs) */
export const frameworkErrors: NonNullable<FastifyServerOptions['frameworkErrors']> = (err, req, reply) => {
  const [message, detail] =
    err.code === 'FST_ERR_BAD_URL'
      ? ['The URL is malformed', 'is malformed']
      : ['A part of the URL is too long', 'is too long'];
  req.startedAt = performance.now();
  reply.header('x-request-id', echoedRequestId(req));
  const details = [{ field: 'url', message: detail }];
  sendJson(reply, 400, errorEnvelope({ code: 'BAD_REQUEST', message, details }, 0));
};
