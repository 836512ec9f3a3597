// Real bytes for seeded uploads: one small file of each kind, shared by every file record that uses it.

export interface FileTemplate {
  extension: string;
  contentType: string;
  bytes: Buffer;
}

// A 1x1 transparent PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

// A minimal one-page PDF (offsets in the xref table are exact).
function minimalPdf(): Buffer {
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] >>'];
  let text = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(text.length);
    text += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = text.length;
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) text += `${String(offset).padStart(10, '0')} 00000 n \n`;
  text += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(text, 'latin1');
}

export const FILE_TEMPLATES: readonly FileTemplate[] = [
  { extension: 'png', contentType: 'image/png', bytes: PNG },
  { extension: 'pdf', contentType: 'application/pdf', bytes: minimalPdf() },
  { extension: 'txt', contentType: 'text/plain; charset=utf-8', bytes: Buffer.from('Contract number: 42-1337\nSigned: yes\n') },
];
