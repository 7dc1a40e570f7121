/**
 * State carried between runs: the header says which frames started dynamic because an earlier run in the
 * process marked their inputs (frames[].automatic_dynamic with marked_in null), on the real rerun_dynamic
 * golden (the dynamic_sizes cell run twice in one process), and says nothing on a first run.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { dynamicText } from '../src/model/shapeText';
import { golden, pane, render, settled } from './helpers';

afterEach(() => {
  document.body.textContent = '';
});

describe('carried state', () => {
  it('the re-run report names the frame, the input and the way back to a clean slate', async () => {
    const report = golden('rerun_dynamic');
    const { root } = await render(report);
    const banner = pane(root, 'header').querySelector<HTMLElement>('[data-banner="carried-state"]');
    expect(banner).not.toBeNull();
    expect(banner!.textContent).toContain('--fresh');
    const items = banner!.querySelectorAll<HTMLElement>('li');
    expect(items).toHaveLength(1);
    expect(items[0].textContent).toContain("scaled_relu: L['x'] dim 0 (size (?))");
    items[0].querySelector('button')!.click();
    await settled(root);
    expect(root.querySelector<HTMLElement>('.jp-DynamoExplorer-frameTitle')!.dataset.compileId).toBe(
      report.frames[0].compile_id
    );
  });

  it('a first run, where this run marked the input itself, shows no banner', async () => {
    const report = golden('dynamic_sizes');
    expect(report.frames[1].automatic_dynamic?.[0].marked_in).toBe(report.frames[1].compile_id);
    const { root } = await render(report);
    expect(root.querySelector('[data-banner="carried-state"]')).toBeNull();
    const chip = root.querySelector<HTMLElement>(
      `[data-pane="frames"] [data-compile-id="${report.frames[1].compile_id}"]`
    );
    chip!.click();
    await settled(root);
    const row = root.querySelector<HTMLElement>('.jp-DynamoExplorer-frameTitle [data-section="automatic-dynamic"]');
    expect(row!.textContent).toContain("L['x'] dim 0 (size (?)) marked by this compile, was size (8)");
  });

  it('the re-run frame title says the input was marked by an earlier run', async () => {
    const { root } = await render(golden('rerun_dynamic'));
    const row = root.querySelector<HTMLElement>('.jp-DynamoExplorer-frameTitle [data-section="automatic-dynamic"]');
    expect(row!.textContent).toContain("L['x'] dim 0 (size (?)) marked by an earlier run");
  });

  it('words a scalar and a tensor', () => {
    expect(dynamicText({ source: "L['n']", kind: 'scalar', dims: [], now: '?' })).toBe("L['n'] (any value)");
    expect(dynamicText({ source: "L['x']", kind: 'tensor', dims: [0, 2], now: 'size (?, 3, ?)' })).toBe(
      "L['x'] dim 0, 2 (size (?, 3, ?))"
    );
  });
});
