// File download (spec §4.1): GET /v1/file/{fileId} is documented; GET /v2/file/{fileId} is only named.
import { test, expect } from '../fixtures/api-test.ts';
import { unknownInteger } from './not-found.ts';
import { discoverFileId } from '../api/requests.ts';
import { judge } from '../judging/matchers.ts';

export function defineFileTests(version: 'v1' | 'v2'): void {
  const operationId = version === 'v1' ? 'getV1File' : 'getV2File';
  const label = `GET /${version}/file/{fileId}`;

  test(`${label} returns the file's bytes; the content type is recorded`, async ({ api, config, observe, precondition }) => {
    const fileId = await discoverFileId(api, config);
    const covers = { pairs: [`${operationId} 200`], observations: [`file.${version}.download`] };
    precondition(fileId !== undefined, 'FILE_ID is not set and no dialog data links to a file: no file to download', covers);
    const res = await api.call(operationId, { path: { fileId: fileId! } });
    observe(operationId, {
      id: `file.${version}.download`,
      section: '4.1',
      item: version === 'v1' ? 'content type of the file download' : 'parameters and response of GET /v2/file/{fileId}',
      observed: { status: res.status, contentType: res.contentType ?? null, nonEmpty: res.bytes.length > 0 },
    });
    if (version === 'v2') {
      await expect(res).toMatchContract(); // only named by the spec: any documented status
      return;
    }
    await expect(res).toMatchContract({ status: 200, because: `for existing file ${fileId}`, section: '4.1' });
    judge(res, 'file_content', { bytes: res.bytes.length });
    // A fileId addresses one file (§2.6): downloaded again, it is the same file.
    const again = await api.call(operationId, { path: { fileId: fileId! } });
    await expect(again).toMatchContract({ status: 200, because: `for existing file ${fileId}, downloaded again`, section: '4.1' });
    judge(again, 'file_content.same_file', { fileId: fileId!, first: res.bytes, again: again.bytes });
  });

  test(`${label} answers 404 for a file that does not exist`, async ({ api, fake, observe }) => {
    const fileId = unknownInteger(fake);
    const res = await api.call(operationId, { path: { fileId } });
    if (version === 'v2') {
      await expect(res).toMatchContract();
      observe(operationId, {
        id: 'file.v2.unknown',
        section: '4.1',
        item: 'parameters and response of GET /v2/file/{fileId}',
        observed: res.status,
        evidence: res.evidence(),
      });
      return;
    }
    await expect(res).toMatchContract({ status: 404, because: `for unknown file ${fileId}`, section: '7' });
  });
}
