const LABELS: Record<string, string> = { csv: 'CSV', json: 'JSON', text: 'text', archive: 'archive (.tar.gz)' };

/** Links to the download endpoints (the session cookie authorises same-origin downloads). */
export function DownloadLinks({ links }: { links: Array<{ format: string; href: string }> }) {
  if (links.length === 0) return null;
  return (
    <span className="downloads">
      {links.map((l) => (
        <a key={l.format} className="button" href={l.href} download>
          Download {LABELS[l.format] ?? l.format}
        </a>
      ))}
    </span>
  );
}
