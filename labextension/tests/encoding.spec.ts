/**
 * The stored form of a big report (`EncodedReport`, compiler/encoding.py): gzip + base64 made here with Node's
 * zlib, as Python's gzip makes it, decoded by the renderer and drawn like the plain report.
 */
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { loadReport } from '../src/model/encoding';
import { golden, render } from './helpers';

afterEach(() => {
  document.body.textContent = '';
});

function encode(report: object, encoding = 'gzip+base64'): object {
  const raw = Buffer.from(JSON.stringify(report), 'utf8');
  return {
    schema_version: (report as { schema_version: object }).schema_version,
    encoding,
    bytes: raw.length,
    data: gzipSync(raw).toString('base64')
  };
}

describe('stored reports', () => {
  it('draws an encoded report as the plain one', async () => {
    const report = golden('training_step');
    const plain = await render(report);
    const plainPanes = [...plain.root.querySelectorAll<HTMLElement>('[data-pane]')].map(p => p.dataset.pane);
    const frames = plain.root.querySelector('[data-pane="frames"]')!.textContent;
    document.body.textContent = '';
    const { root } = await render(encode(report));
    expect(root.querySelector('.jp-DynamoExplorer-unsupported')).toBeNull();
    expect([...root.querySelectorAll<HTMLElement>('[data-pane]')].map(p => p.dataset.pane)).toEqual(plainPanes);
    expect(root.querySelector('[data-pane="frames"]')!.textContent).toBe(frames);
  });

  it('decodes non-ASCII text and JSON text input', async () => {
    const report = golden('xss_strings');
    const check = await loadReport(JSON.stringify(encode(report)));
    expect(check.ok && check.report).toEqual(report);
  });

  it('refuses an unknown major before decoding, and an unknown encoding', async () => {
    const report = golden('toy_example');
    const future = { ...encode(report), schema_version: { major: 99, minor: 0 }, data: '!!! not base64 !!!' };
    const check = await loadReport(future);
    expect(check.ok).toBe(false);
    expect(!check.ok && check.kind).toBe('unsupported-version');
    const other = await loadReport(encode(report, 'zstd+base64'));
    expect(!other.ok && other.message).toContain("'zstd+base64'");
  });

  it('explains data that does not decode', async () => {
    const broken = { ...encode(golden('toy_example')), data: Buffer.from('not gzip').toString('base64') };
    const { root } = await render(broken);
    const message = root.querySelector<HTMLElement>('.jp-DynamoExplorer-unsupported')!;
    expect(message.dataset.problem).toBe('malformed');
    expect(message.textContent).toContain('could not be decoded');
  });
});
