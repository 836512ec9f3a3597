// k6's console, a global of its runtime (k6 writes it to its log): @types/k6 does not declare it, and the k6 scripts'
// program has neither DOM nor Node types (load/tsconfig.json) that would.
interface Console {
  debug(...data: unknown[]): void;
  error(...data: unknown[]): void;
  info(...data: unknown[]): void;
  log(...data: unknown[]): void;
  warn(...data: unknown[]): void;
}

declare var console: Console;
