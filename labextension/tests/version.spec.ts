/**
 * The version gate: a report of an unknown major renders a visible message instead of the explorer.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { checkReport } from '../src/model/model';
import { golden, loadGoldens, render } from './helpers';

afterEach(() => {
  document.body.textContent = '';
});

describe('schema version gate', () => {
  it('renders a message for an unknown major', async () => {
    const [name] = loadGoldens()[0];
    const report = golden(name) as unknown as { schema_version: { major: number; minor: number } };
    report.schema_version = { major: 99, minor: 3 };
    const { root } = await render(report);
    expect(root.dataset.status).toBe('ready');
    const message = root.querySelector<HTMLElement>('.jp-DynamoExplorer-unsupported')!;
    expect(message.dataset.problem).toBe('unsupported-version');
    expect(message.textContent).toContain('99.3');
    expect(root.querySelector('[data-pane]')).toBeNull();
  });

  it('accepts a newer minor of the same major', async () => {
    const [name] = loadGoldens()[0];
    const report = golden(name);
    report.schema_version = { major: 1, minor: 42 };
    const { root } = await render(report);
    expect(root.querySelector('.jp-DynamoExplorer-unsupported')).toBeNull();
    expect(root.querySelector('[data-pane="frames"]')).not.toBeNull();
  });

  it('explains payloads that are not reports', async () => {
    for (const data of [null, 'not json', { frames: [] }, 42]) {
      const { root } = await render(data);
      const message = root.querySelector<HTMLElement>('.jp-DynamoExplorer-unsupported')!;
      expect(message.dataset.problem).toBe('malformed');
      expect(message.textContent!.length).toBeGreaterThan(10);
    }
  });

  it('parses a report sent as a JSON string', () => {
    const [, report] = loadGoldens()[0];
    const check = checkReport(JSON.stringify(report));
    expect(check.ok).toBe(true);
  });
});
