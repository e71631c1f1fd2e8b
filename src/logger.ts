import pino, { type Logger } from 'pino';

/** JSON logs on stdout. API keys and admin tokens are never logged: the request logger writes
 *  only the key id, and these paths are redacted wherever a header object is logged. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: [
        'req.headers["x-api-key"]',
        'req.headers.authorization',
        'headers["x-api-key"]',
        'headers.authorization',
        '*.apiKey',
        '*.key',
      ],
      censor: '[redacted]',
    },
  });
}
