import { applyDecorators } from '@nestjs/common';
import { Matches, MaxLength } from 'class-validator';

/**
 * Names of stored objects are display names only, never paths: 1..255 characters, no control
 * characters (NUL, newlines ...), no `/` or `\`, not `.` or `..`.
 */
export const DISPLAY_NAME_RE = /^(?!\.{1,2}$)[^\x00-\x1f\x7f/\\]{1,255}$/;

/** Free text (descriptions): anything but NUL and control characters other than tab and newlines. */
export const FREE_TEXT_RE = /^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f]*$/;

/** Labels: short single-line strings. */
export const LABEL_RE = /^[^\x00-\x1f\x7f]{1,128}$/;

export const isDisplayName = (s: unknown): s is string => typeof s === 'string' && DISPLAY_NAME_RE.test(s);

export const IsDisplayName = () =>
  applyDecorators(MaxLength(255), Matches(DISPLAY_NAME_RE, { message: '$property must be 1-255 characters without control characters, "/" or "\\", and not "." or ".."' }));

export const IsFreeText = (max = 4096) => applyDecorators(MaxLength(max), Matches(FREE_TEXT_RE, { message: '$property must not contain NUL or control characters' }));

/**
 * `Content-Disposition: attachment` for a display name: an ASCII fallback `filename` with every
 * risky character replaced, and the UTF-8 name in `filename*` (RFC 6266 / 5987).
 */
export function attachmentDisposition(name: string, fallback = 'download'): string {
  const cleaned = name.replace(/[\x00-\x1f\x7f/\\]/g, '_').trim() || fallback;
  const ascii = cleaned.replace(/[^\x20-\x7e]/g, '_').replace(/["%;]/g, '_');
  const encoded = encodeURIComponent(cleaned).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
