import { decodeBase64Field } from './playbook-bytes';

const status = (fn: () => unknown): [number, string?] => {
  try {
    fn();
    return [200];
  } catch (e) {
    const err = e as { status: number; message: string };
    return [err.status, err.message];
  }
};

describe('decodeBase64Field', () => {
  it('reads padded standard base64 (line breaks ignored) into the bytes sent', () => {
    const bytes = Buffer.from([0, 255, 1, 2, 3, 250]);
    expect(decodeBase64Field(bytes.toString('base64'), 'Body', 100)).toEqual(bytes);
    expect(decodeBase64Field('aGVs\r\nbG8=', 'Body', 100).toString()).toBe('hello');
    expect(decodeBase64Field('', 'Body', 100).length).toBe(0);
  });

  it('refuses what Go would refuse: unpadded, URL alphabet, stray characters, padding inside', () => {
    for (const s of ['aGVsbG8', 'a-_b', 'aGVs bG8=', 'a=bc', '====', 'aGVsbG8=\u0000']) {
      expect(status(() => decodeBase64Field(s, 'Body', 100))).toEqual([400, 'Body must be base64 (the standard alphabet, padded), as the product sends bytes']);
    }
  });

  it('counts the decoded size before decoding: the limit is exact', () => {
    expect(decodeBase64Field(Buffer.alloc(10).toString('base64'), 'Metadata', 10).length).toBe(10);
    expect(status(() => decodeBase64Field(Buffer.alloc(11).toString('base64'), 'Body', 10, 'MAX_PLAYBOOK_SIZE'))).toEqual([
      413,
      "The playbook's Body is larger than the limit of 10 bytes (MAX_PLAYBOOK_SIZE)",
    ]);
    expect(status(() => decodeBase64Field(Buffer.alloc(12).toString('base64'), 'Metadata', 10))[1]).toMatch(/\(a fixed limit\)$/);
  });
});
