/** Showing the leading bytes of a content (the content-type preview): as text and as hex, never as markup. */

export function base64ToBytes(b64: string): Uint8Array {
  let bin: string;
  try {
    bin = atob(b64);
  } catch {
    return new Uint8Array();
  }
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** UTF-8 text, with control characters other than tab and newline shown as `·` (and U+FFFD for invalid bytes). */
export function bytesAsText(bytes: Uint8Array): string {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  return text.replace(/\r\n/g, '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '·');
}

/** Whether the bytes look like text: valid UTF-8 with few control characters. */
export function looksLikeText(bytes: Uint8Array): boolean {
  if (!bytes.length) return true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // A multi-byte character cut at the end of the preview is still text.
    if (bytes.length < 4) return false;
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, bytes.length - 3));
    } catch {
      return false;
    }
  }
  let control = 0;
  for (const b of bytes) if (b < 9 || (b > 13 && b < 32) || b === 127) control++;
  return control / bytes.length < 0.05;
}

const hex2 = (b: number) => b.toString(16).padStart(2, '0');

/** Lines of `00000010  48 65 6c 6c 6f 20 77 6f  72 6c 64 0a 00 ff fe 01  |Hello world.....|`. */
export function hexDump(bytes: Uint8Array, width = 16): string[] {
  const lines: string[] = [];
  for (let off = 0; off < bytes.length; off += width) {
    const row = bytes.subarray(off, off + width);
    const hex: string[] = [];
    for (let i = 0; i < width; i++) {
      hex.push(i < row.length ? hex2(row[i]) : '  ');
      if (i === width / 2 - 1) hex.push('');
    }
    const ascii = Array.from(row, (b) => (b >= 32 && b < 127 ? String.fromCharCode(b) : '.')).join('');
    lines.push(`${off.toString(16).padStart(8, '0')}  ${hex.join(' ')}  |${ascii}|`);
  }
  return lines;
}
