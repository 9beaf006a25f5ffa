import winston from 'winston';
import { currentRequestId } from './context';

export type Logger = winston.Logger;

const addRequestId = winston.format((info) => {
  const requestId = currentRequestId();
  if (requestId && !info.requestId) info.requestId = requestId;
  return info;
});

/** JSON logs carrying the current request id; one child logger per module. */
export function createLogger(service: string, level = 'info'): Logger {
  return winston.createLogger({
    level: level === 'silent' ? 'error' : level,
    silent: level === 'silent',
    defaultMeta: { service },
    format: winston.format.combine(
      addRequestId(),
      winston.format.timestamp(),
      winston.format.errors({ stack: true }),
      winston.format.json(),
    ),
    transports: [new winston.transports.Console({ stderrLevels: ['error', 'warn'] })],
  });
}
