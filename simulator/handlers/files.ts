// GET /v1/file/{fileId} (spec §4.1, §2.6): the bytes with their content type. A file whose data item is marked
// deleted answers 404 like an unknown one. GET /v2/file/{fileId} is not shown: config.files.v2 decides.
import { HttpError, type Exchange, type Reply } from '../exchange.ts';
import { parseInteger } from '../params.ts';
import type { Simulation } from '../simulation.ts';
import type { Handler } from './types.ts';

export function fileHandlers(sim: Simulation): Record<string, Handler> {
  const download = (ex: Exchange): Reply => {
    const id = parseInteger(ex.params[0]!, 404, 'parameter value is wrong: fileId');
    const file = sim.store.files.get(id);
    if (!file || file.deleted) throw new HttpError(404, `file ${id} not found`);
    return {
      status: 200,
      raw: file.bytes,
      contentType: file.contentType,
      headers: { 'Content-Disposition': `attachment; filename="${file.name}"` },
    };
  };
  return {
    getV1File: download,
    getV2File: (ex) => {
      if (sim.config.files.v2 === 'not-found') throw new HttpError(404, 'not found');
      return download(ex);
    },
  };
}
