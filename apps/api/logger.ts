import pino, { type Logger } from 'pino';

/** Field names that carry secrets anywhere in a logged object. */
export const SECRET_FIELDS = [
  'tsig_secret', 'secret_key', 'state_secret', 'password', 'api_token', 'psk', 'ingest_token', 'read_token',
  'enrollment_token', 'tsigSecret', 'secretKey', 'stateSecret', 'apiToken', 'ingestToken', 'readToken',
  'authorization', 'Authorization',
];

export function createLogger(level: string, name: string, destination?: pino.DestinationStream): Logger {
  const paths = SECRET_FIELDS.flatMap((f) => [f, `*.${f}`, `*.*.${f}`]);
  return pino(
    {
      level,
      name,
      redact: { paths, censor: '[redacted]' },
      base: { service: name },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}

export type { Logger };
