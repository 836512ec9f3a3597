// Worker entry, plain JavaScript: worker threads do not inherit the tsx loader, so this registers it first.
import { register } from 'tsx/esm/api';

register();
await import('./sync-http-worker.ts');
