import type { Exchange, Reply } from '../exchange.ts';

export type Handler = (ex: Exchange) => Reply;
