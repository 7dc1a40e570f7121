/**
 * The anywidget host (src/hosts/anywidget.ts): a view asks the kernel for the report and draws it with the same
 * ReportView; no answer gives a line saying how to see the report; a payload this renderer cannot read shows
 * why, as the MIME renderer does. The model here is a stand-in for anywidget's (its `send` is answered the way
 * kernel_ext/widget.py answers); the real round trip runs in tests/browser/test_widget.py.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AnyModel, RenderProps } from '@anywidget/types';
import widget, { ANSWER_TIMEOUT_MS, askForReport, NO_KERNEL, type IExplorerState } from '../src/hosts/anywidget';
import type { CompileReport } from '../src/schema';
import { shownReports } from '../src/view/reportHub';
import { golden, pane, settled } from './helpers';

type Handler = (message: unknown) => void;

/** The kernel's side, as kernel_ext/widget.py answers: the report (with its cell) and each run asked for. */
interface IKernel {
  payload?: unknown;
  cell?: string | null;
  ran?: (source: string) => object;
  parts?: Record<string, unknown>;
}

/** A model whose kernel answers as `kernel` says (never, without a payload). */
function model(kernel: IKernel, summary = 'dynamo: 2 frames'): { model: AnyModel<IExplorerState>; sent: unknown[] } {
  const handlers = new Set<Handler>();
  const sent: unknown[] = [];
  const answer = (message: object): void => {
    setTimeout(() => handlers.forEach(h => h(message)), 0);
  };
  const fake = {
    get: (key: string) => (key === 'summary' ? summary : undefined),
    on: (_event: string, handler: Handler) => handlers.add(handler),
    off: (_event: string, handler: Handler) => handlers.delete(handler),
    send: (message: { kind: string; source?: string; key?: string }) => {
      sent.push(message);
      if (message.kind === 'report?' && kernel.payload !== undefined) {
        answer({ kind: 'report', report: kernel.payload, cell: kernel.cell ?? null });
      } else if (message.kind === 'run' && kernel.ran) {
        answer({ kind: 'ran', source: message.source, ...kernel.ran(message.source!) });
      } else if (message.kind === 'part?' && kernel.parts) {
        const key = message.key!;
        answer({ kind: 'part', key, part: kernel.parts[key] ?? null, error: key in kernel.parts ? null : 'gone' });
      }
    }
  };
  return { model: fake as unknown as AnyModel<IExplorerState>, sent };
}

/** What anywidget hands `render`. */
function props(m: AnyModel<IExplorerState>, el: HTMLElement): RenderProps<IExplorerState> {
  return { model: m, el, signal: new AbortController().signal, host: {} as never, experimental: {} as never };
}

afterEach(() => {
  document.body.textContent = '';
});

describe('the explorer as an anywidget', () => {
  it('asks the kernel for the report and draws every pane of it', async () => {
    const el = document.createElement('div');
    document.body.appendChild(el);
    const { model: m, sent } = model({ payload: golden('toy_example') });
    const dispose = await widget.render(props(m, el));
    const root = el.querySelector<HTMLElement>('.jp-DynamoExplorer')!;
    await settled(root);
    expect(sent).toEqual([{ kind: 'report?' }]);
    expect(root.dataset.host).toBe('widget');
    expect(root.dataset.status).toBe('ready');
    expect(pane(root, 'frames').textContent).toContain('toy_example');
    // no cell (explore()): no host offers Try it, the line to copy is shown
    expect(pane(root, 'try-fix').querySelector('button[data-action="try"]')).toBeNull();
    // jsdom has no JupyterLab theme: the light-theme values hang on the root
    expect(root.classList.contains('jp-DynamoExplorer-standalone')).toBe(true);
    expect(typeof dispose).toBe('function');
    (dispose as () => void)();
  });

  it('says how to see the report when no kernel answers', async () => {
    const el = document.createElement('div');
    const { model: m } = model({});
    const answer = await askForReport(m, 10);
    expect(answer).toBeNull();
    vi.useFakeTimers();
    try {
      const pending = widget.render(props(m, el));
      expect(el.textContent).toContain('dynamo: 2 frames'); // the summary, while it waits
      await vi.advanceTimersByTimeAsync(ANSWER_TIMEOUT_MS);
      await pending;
    } finally {
      vi.useRealTimers();
    }
    expect(el.querySelector('[data-problem="no-kernel"]')?.textContent).toBe(NO_KERNEL);
  });

  it('shows why a payload it cannot read is not drawn', async () => {
    const el = document.createElement('div');
    const { model: m } = model({ payload: { schema_version: { major: 99, minor: 0 } } });
    await widget.render(props(m, el));
    expect(el.querySelector('[data-problem="unsupported-version"]')).not.toBeNull();
  });

  it('runs a fix in the kernel on Try it and draws that run below the explorer', async () => {
    const cell = '%%dynamo --backend eager\nimport torch\n\ndef normalize(x):\n    return x / x.sum().item()\n';
    const after = golden('try_fix');
    const { model: m, sent } = model({
      payload: golden('item_break'),
      cell,
      ran: () => ({
        report: after,
        stdout: '%%dynamo --try capture_scalar_outputs: this cell RUNS AGAIN\n',
        error: null
      })
    });
    const el = document.createElement('div');
    document.body.appendChild(el);
    await widget.render(props(m, el));
    const root = el.querySelector<HTMLElement>('.jp-DynamoExplorer')!;
    await settled(root);
    const card = pane(root, 'try-fix').querySelector<HTMLElement>('[data-fix="capture_scalar_outputs"]')!;
    card.querySelector<HTMLButtonElement>('button[data-action="try"]')!.click();
    expect(card.querySelector('.jp-DynamoExplorer-tryConfirm')!.textContent).toContain('below this explorer');
    card.querySelector<HTMLButtonElement>('button[data-action="confirm"]')!.click();
    await vi.waitFor(() =>
      expect(el.querySelector('.jp-DynamoExplorer-widgetRun')?.getAttribute('data-state')).toBe('done')
    );
    expect(sent).toContainEqual({
      kind: 'run',
      source: cell.replace('%%dynamo --backend eager', '%%dynamo --backend eager --try capture_scalar_outputs')
    });
    const run = el.querySelector<HTMLElement>('.jp-DynamoExplorer-widgetRun')!;
    expect(run.querySelector('.jp-DynamoExplorer-tryLine')!.textContent).toBe(
      '%%dynamo --backend eager --try capture_scalar_outputs'
    );
    expect(run.querySelector('pre')!.textContent).toContain('RUNS AGAIN');
    const below = run.querySelector<HTMLElement>('.jp-DynamoExplorer[data-host="widget"]')!;
    await settled(below);
    expect(below.dataset.status).toBe('ready');
    await vi.waitFor(() =>
      expect(card.querySelector('[data-state="running"]')?.textContent).toContain('below this explorer')
    );
  });

  it('is the live progress line while pending, and draws the report the kernel pushes at the end', async () => {
    const handlers = new Map<string, Set<Handler>>();
    const state: Record<string, unknown> = {
      summary: 'dynamo: 1 frame compiled so far · tracing [0/0] · 0.5 s',
      pending: true
    };
    const sent: unknown[] = [];
    const emit = (event: string, message?: unknown): void => handlers.get(event)?.forEach(h => h(message));
    const fake = {
      get: (key: string) => state[key],
      on: (event: string, handler: Handler) => handlers.set(event, (handlers.get(event) ?? new Set()).add(handler)),
      off: (event: string, handler: Handler) => handlers.get(event)?.delete(handler),
      send: (message: unknown) => sent.push(message)
    };
    const el = document.createElement('div');
    document.body.appendChild(el);
    const pending = widget.render(props(fake as unknown as AnyModel<IExplorerState>, el));
    await new Promise(resolve => setTimeout(resolve, 0));
    expect(el.textContent).toContain('tracing [0/0] · 0.5 s');
    state.summary = 'dynamo: 2 frames compiled so far · backend [1/0] · 1.0 s';
    emit('change:summary');
    expect(el.textContent).toContain('backend [1/0] · 1.0 s');
    expect(sent).toEqual([]); // a pending widget asks nothing: the kernel is busy running the cell
    state.pending = false;
    emit('msg:custom', { kind: 'report', report: golden('toy_example'), cell: null });
    await pending;
    const root = el.querySelector<HTMLElement>('.jp-DynamoExplorer')!;
    await settled(root);
    expect(root.dataset.status).toBe('ready');
    expect(pane(root, 'frames').textContent).toContain('toy_example');
    expect(el.textContent).not.toContain('compiled so far');
  });

  it("shows another rank's report in place of this one, asking the kernel through the widget", async () => {
    const ranked = (shown: number): CompileReport => {
      const report = golden('toy_example');
      const row = (rank: number) => ({
        rank,
        source: `rank${rank}.log`,
        part: `rank:k:${rank}`,
        compile_s: 1,
        straggler: false,
        compiles: []
      });
      report.ranks = { world_size: 2, shown_rank: shown, ranks: [row(0), row(1)], divergence: null };
      return report;
    };
    const el = document.createElement('div');
    document.body.appendChild(el);
    const { model: m, sent } = model({ payload: ranked(0), parts: { 'rank:k:1': ranked(1) } });
    const dispose = (await widget.render(props(m, el))) as () => void;
    const root = el.querySelector<HTMLElement>('.jp-DynamoExplorer')!;
    await settled(root);
    pane(root, 'header').querySelector<HTMLButtonElement>('tr[data-rank="1"] button')!.click();
    await vi.waitFor(() =>
      expect(pane(root, 'header').querySelector('tr[data-rank="1"] td')!.textContent).toBe('rank 1 (shown)')
    );
    expect(sent).toEqual([{ kind: 'report?' }, { kind: 'part?', key: 'rank:k:1' }]);
    expect(el.querySelectorAll('.jp-DynamoExplorer')).toHaveLength(1); // in place
    expect(el.querySelectorAll('.jp-DynamoExplorer-widgetRuns')).toHaveLength(1);
    expect(shownReports().filter(r => r.node === root)).toHaveLength(1);
    dispose(); // takes down the view drawn now: the rank shown in place
    expect(shownReports().filter(r => r.node === root)).toHaveLength(0);
  });
});
