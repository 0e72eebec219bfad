import { describe, expect, it } from '@jest/globals';
import { base64ToBytes, bytesAsText, hexDump, looksLikeText } from './bytes';
import { errorMessage } from '../api/client';
import { cleanFileName, filenameFromDisposition, safeFileName } from './download';
import { uploadErrorMessage } from './upload';

describe('byte previews', () => {
  const binary = Uint8Array.from([0x00, 0xff, 0xfe, 0x41, 0x0a, 0x80, 0x7f, 0x42]);

  it('decodes base64, and an invalid one as no bytes', () => {
    expect([...base64ToBytes(Buffer.from(binary).toString('base64'))]).toEqual([...binary]);
    expect(base64ToBytes('***').length).toBe(0);
  });

  it('tells text from binary: valid UTF-8 with few control characters, a character cut at the end still text', () => {
    expect(looksLikeText(new TextEncoder().encode('name,ip\nalpha,10.0.0.1\n'))).toBe(true);
    expect(looksLikeText(new TextEncoder().encode('héllo wörld, ünïcode!').subarray(0, 5))).toBe(true);
    expect(looksLikeText(binary)).toBe(false);
    expect(looksLikeText(new Uint8Array())).toBe(true);
  });

  it('shows bytes as text with control characters made visible, never as markup', () => {
    expect(bytesAsText(new TextEncoder().encode('<b>x</b>\r\n\ty\u0001'))).toBe('<b>x</b>\n\ty·');
  });

  it('dumps bytes as hex with offsets and printable characters', () => {
    expect(hexDump(binary)).toEqual(['00000000  00 ff fe 41 0a 80 7f 42                           |...A...B|']);
    const lines = hexDump(new Uint8Array(20).fill(0x61));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe('00000000  61 61 61 61 61 61 61 61  61 61 61 61 61 61 61 61  |aaaaaaaaaaaaaaaa|');
    expect(lines[1].startsWith('00000010  61 61 61 61 ')).toBe(true);
  });
});

describe('downloads and upload errors', () => {
  it("reads the service's Content-Disposition: filename* (UTF-8) before filename", () => {
    expect(filenameFromDisposition(`attachment; filename="r_sum_.csv"; filename*=UTF-8''r%C3%A9sum%C3%A9.csv`)).toBe('résumé.csv');
    expect(filenameFromDisposition('attachment; filename="plain name.bin"')).toBe('plain name.bin');
    expect(filenameFromDisposition('attachment; filename=bare.txt')).toBe('bare.txt');
    expect(filenameFromDisposition('attachment')).toBeUndefined();
    expect(filenameFromDisposition(null)).toBeUndefined();
  });

  it('offers only safe names to the save dialog', () => {
    expect(safeFileName('../etc/passwd', 'x')).toBe('.._etc_passwd');
    expect(safeFileName('..', 'fallback')).toBe('fallback');
    expect(safeFileName('a\u0000b', 'x')).toBe('a_b');
    expect(cleanFileName(' a/b\\c\u0001\u007f.png ')).toBe(' a_b_c_.png ');
  });

  it("gives the service's Error text, else words for the status", () => {
    expect(uploadErrorMessage(400, 'Bad Request', '{"Error":"Resource not found"}')).toBe('Resource not found');
    expect(uploadErrorMessage(413, 'Payload Too Large', '')).toBe('The file is larger than the service accepts.');
    expect(uploadErrorMessage(413, 'Payload Too Large', '{"Error":"Too big: 5 MB at most"}')).toBe('Too big: 5 MB at most');
    expect(uploadErrorMessage(502, 'Bad Gateway', '<html>')).toBe('502 Bad Gateway');
    // The same words api() and apiRaw() give, from a parsed body too.
    expect(errorMessage(409, 'Conflict', { Error: 'Name taken' })).toBe('Name taken');
    expect(errorMessage(403, 'Forbidden', { Reason: 'Not yours' })).toBe('Not yours');
    expect(errorMessage(500, '', undefined)).toBe('500 error');
  });
});
