/**
 * CUDA graphs (report.cudagraphs, issue 28 item 3) in the frame's view: the frame title's row (each compiled graph's
 * state, inductor's reason in a few words with the full text in its tooltip, recordings, replays versus eager runs
 * with --profile; a click opens the graph in the FX pane) and the frame chip's badge. On the training_step golden
 * with rows as the CPU writes them (the forward skipped, its backward with it) and as a GPU writes them (recorded,
 * re-recorded); a report without the field shows nothing. The words are cudagraphsModel.spec.ts's.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { CompileReport } from '../src/schema';
import { CPU_REASON, cudagraphRow } from './cudagraphsFixtures';
import { golden, pane, render, settled } from './helpers';

afterEach(() => {
  document.body.textContent = '';
});

/** training_step with [0/0]'s forward (graph 2) skipped on the CPU and its backward (graph 3) with it. */
function cpuReport(): CompileReport {
  const report = golden('training_step');
  report.cudagraphs = [
    cudagraphRow({ graph_id: 2 }),
    cudagraphRow({
      kind: 'backward',
      graph_id: 3,
      from_forward: true,
      explanation: 'inductor decides CUDA graphs once'
    })
  ];
  return report;
}

describe('CUDA graphs in the frame view', () => {
  it('the frame title names each graph state and inductor reason, and opens the graph', async () => {
    const { root } = await render(cpuReport());
    const section = root.querySelector<HTMLElement>('.jp-DynamoExplorer-frameTitle [data-section="cudagraphs"]');
    expect(section).not.toBeNull();
    const items = Array.from(section!.querySelectorAll<HTMLElement>('.jp-DynamoExplorer-cudagraph'));
    expect(items.map(i => [i.dataset.kind, i.dataset.status])).toEqual([
      ['forward', 'skipped'],
      ['backward', 'skipped']
    ]);
    expect(items[0].textContent).toContain('forward: skipped (no CUDA device)');
    expect(items[0].textContent).toContain('CUDA graphs record CUDA work only');
    expect(items[0].title).toContain(`inductor: ${CPU_REASON.trim()}`);
    expect(items[1].textContent).toContain('with its forward');
    items[1].querySelector('button')!.click();
    await settled(root);
    expect(pane(root, 'fx-graph').dataset.graphId).toBe('3');
  });

  it("a report before minor 15 (no reason_text) says inductor's reason in the same words", async () => {
    const report = cpuReport();
    for (const c of report.cudagraphs!) {
      delete c.reason_text;
    }
    const { root } = await render(report);
    const items = root.querySelectorAll<HTMLElement>('.jp-DynamoExplorer-frameTitle .jp-DynamoExplorer-cudagraph');
    expect(items[0].textContent).toContain('forward: skipped (no CUDA device)');
    expect(items[1].textContent).toContain('backward: skipped (with its forward: no CUDA device)');
  });

  it('the frame chip carries a badge; a frame without rows none', async () => {
    const { root } = await render(cpuReport());
    const badge = root.querySelector<HTMLElement>('[data-pane="frames"] [data-compile-id="0/0"] [data-cudagraphs]');
    expect(badge!.dataset.cudagraphs).toBe('skipped');
    expect(badge!.textContent).toBe('no CUDA graph');
    expect(badge!.title).toContain('backward: skipped');
    expect(root.querySelector('[data-pane="frames"] [data-compile-id="1/0"] [data-cudagraphs]')).toBeNull();
  });

  it('a GPU run: recorded and re-recorded, with replays', async () => {
    const report = golden('training_step');
    report.cudagraphs = [
      cudagraphRow({
        graph_id: 2,
        status: 'recorded',
        reason: null,
        reason_text: null,
        skipped_at: null,
        partitions: 1,
        recordings: 1,
        warmups: 1
      }),
      cudagraphRow({
        kind: 'backward',
        graph_id: 3,
        status: 'rerecorded',
        reason: null,
        reason_text: null,
        skipped_at: null,
        partitions: 1,
        recordings: 2,
        rerecord_reasons: ['static input data pointer changed.\ninput name: primals_1'],
        calls: 10,
        replays: 7,
        eager_runs: 1
      })
    ];
    const { root } = await render(report);
    const items = root.querySelectorAll<HTMLElement>('.jp-DynamoExplorer-frameTitle .jp-DynamoExplorer-cudagraph');
    expect(items[0].textContent).toBe('forward: recorded (1 recording)');
    expect(items[1].textContent).toBe('backward: re-recorded (2 recordings · 7 replays / 1 eager run)');
    expect(items[1].title).toContain('recorded again because: static input data pointer changed.');
    const badge = root.querySelector<HTMLElement>('[data-pane="frames"] [data-compile-id="0/0"] [data-cudagraphs]');
    expect(badge!.textContent).toBe('CUDA graph');
  });

  it('a report without CUDA graphs (before minor 8, or none asked for) shows nothing', async () => {
    const { root } = await render(golden('training_step'));
    expect(root.querySelector('[data-section="cudagraphs"]')).toBeNull();
    expect(root.querySelector('[data-cudagraphs]')).toBeNull();
  });
});
