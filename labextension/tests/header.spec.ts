/**
 * The header on the real own_options golden (issue 23): what scope 'calls' compiled and with which options (the
 * user's own torch.compile options kept), the function a thread ran, the coroutine run plain, and the reset the
 * cell made, with its line.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CompileReport, RankSummary } from '../src/schema';
import { calleeText, settingsText } from '../src/view/panes/header';
import { setReportHost } from '../src/view/reportHub';
import { golden, pane, render, settled } from './helpers';

afterEach(() => {
  document.body.textContent = '';
});

describe('header: callees and resets', () => {
  it('names the options each compiled callee ran with and what ran plain, and why', async () => {
    const report = golden('own_options');
    const { root } = await render(report);
    const header = pane(root, 'header');
    const compiled = header.querySelector<HTMLElement>('[data-callees="compiled"]')!.textContent!;
    expect(compiled).toContain("cg (line 11, your torch.compile: backend='aot_eager', dynamic=False)");
    expect(compiled).toContain('work (line 17, on another thread: threading.Thread)');
    const plain = header.querySelector<HTMLElement>('[data-callees="plain"]')!.textContent!;
    expect(plain).toBe('ran plainmain (line 24, a coroutine function (async def))');
  });

  it('says where the cell reset Dynamo', async () => {
    const report = golden('own_options');
    const { root } = await render(report);
    const banner = pane(root, 'header').querySelector<HTMLElement>('[data-banner="reset"]')!;
    expect(banner.textContent).toContain('The cell reset Dynamo at line 5 (torch._dynamo.reset())');
    expect(banner.querySelector('button')!.textContent).toContain('line 5');
  });

  it('writes options as torch.compile arguments, the words the Python summary uses', () => {
    const settings = {
      origin: 'torch.compile' as const,
      backend: 'inductor',
      mode: 'reduce-overhead',
      dynamic: true,
      fullgraph: true,
      options: { max_autotune: true },
      recompile_limit: 3
    };
    expect(settingsText(settings)).toBe(
      "backend='inductor', mode='reduce-overhead', dynamic=True, fullgraph=True, options={'max_autotune': True}, recompile_limit=3"
    );
    expect(calleeText({ name: 'f', line: 2, compiled: true, why: 'a function you defined', compile: settings })).toBe(
      `f (line 2, your torch.compile: ${settingsText(settings)})`
    );
  });

  it('a report without callees shows no callee row and no reset banner', async () => {
    const { root } = await render(golden('cell_scope'));
    expect(root.querySelector('.jp-DynamoExplorer-callees')).toBeNull();
    expect(root.querySelector('[data-banner="reset"]')).toBeNull();
  });
});

describe('header: a report read from a structured trace', () => {
  it('names the log and rank, counts the cache decisions and lists what the trace does not hold', async () => {
    const report = golden('toy_example');
    report.scope = 'trace';
    report.trace = {
      logs: [
        {
          path: '/tmp/trace/dedicated_log_torch_trace_rank_1_x.log',
          rank: 1,
          lines: 10,
          records: 5,
          skipped: 2,
          bytes: 900
        }
      ],
      rank: 1,
      missing: [
        {
          pane: 'original-bytecode',
          what: 'the bytecode of a top-level frame',
          why: 'torch writes only a resume function’s'
        }
      ],
      caches: [
        { compile_id: '0/0', cache: 'fx_graph', status: 'miss', key: 'abc', reason: null },
        { compile_id: '1/0', cache: 'fx_graph', status: 'hit', key: 'def', reason: null },
        { compile_id: '0/0', cache: 'aotautograd', status: 'bypass', key: null, reason: 'unsupported op' }
      ]
    };
    const { root } = await render(report);
    const banner = pane(root, 'header').querySelector<HTMLElement>('[data-banner="trace"]')!;
    expect(banner.textContent).toContain(
      'Read from a structured trace: /tmp/trace/dedicated_log_torch_trace_rank_1_x.log (rank 1); nothing ran here. 2 lines of the log could not be read.'
    );
    const caches = banner.querySelector<HTMLElement>('[data-caches]')!;
    expect(caches.textContent).toBe('caches: fx_graph: 1 miss, 1 hit · aotautograd: 1 bypass');
    expect(caches.title).toContain('[0/0] aotautograd bypass (unsupported op)');
    const missing = banner.querySelector<HTMLElement>('li[data-pane="original-bytecode"]')!;
    expect(missing.textContent).toBe(
      'Original bytecode: the bytecode of a top-level frame. torch writes only a resume function’s.'
    );
  });

  it('a captured run has no trace banner', async () => {
    const { root } = await render(golden('toy_example'));
    expect(root.querySelector('[data-banner="trace"]')).toBeNull();
  });
});

describe('header: several ranks side by side', () => {
  it('draws a ranks × compile ids table, marks the straggler and the divergence, and shows its cause', async () => {
    const report = golden('toy_example');
    report.ranks = {
      world_size: 2,
      shown_rank: 0,
      ranks: [
        {
          rank: 0,
          source: 'rank0.log',
          compile_s: 1.5,
          straggler: false,
          compiles: [
            { compile_id: '0/0', status: 'ok', graph: 'aa', cache: null, compile_s: 1.5, start_s: 0, collectives: [] }
          ]
        },
        {
          rank: 1,
          source: 'rank1.log',
          page: 'job.rank1.html',
          compile_s: 2.25,
          straggler: true,
          compiles: [
            {
              compile_id: '0/0',
              status: 'ok',
              graph: 'aa',
              cache: 'fx_graph hit',
              compile_s: 1.0,
              start_s: 0.1,
              collectives: []
            },
            {
              compile_id: '0/1',
              status: 'recompile',
              graph: 'bb',
              cache: null,
              compile_s: 1.25,
              start_s: 2,
              collectives: []
            }
          ]
        }
      ],
      divergence: {
        index: 1,
        compile_id: '0/1',
        kind: 'compile_ids',
        ranks: [1],
        summary: 'rank 1 compiled [0/1], rank 0 did not',
        detail: "the guard that failed: 0/0: tensor 'x' size mismatch at index 0. expected 4, actual 6"
      }
    };
    const { root } = await render(report);
    const header = pane(root, 'header');
    const banner = header.querySelector<HTMLElement>('[data-banner="divergence"]')!;
    expect(banner.textContent).toContain('Ranks diverge (compile_ids): rank 1 compiled [0/1], rank 0 did not');
    expect(banner.querySelector('pre')!.textContent).toContain('size mismatch at index 0. expected 4, actual 6');
    const rows = [...header.querySelectorAll<HTMLElement>('.jp-DynamoExplorer-ranksTable tr')].map(tr =>
      [...tr.children].map(td => td.textContent)
    );
    expect(rows).toEqual([
      ['rank', 'compile', '[0/0]', '[0/1]'],
      ['rank 0 (shown)', '1.50 s', 'ok', 'missing'],
      ['rank 1', '2.25 s (straggler)', 'ok · fx_graph hit', 'recompile']
    ]);
    expect(header.querySelector('tr[data-rank="1"] td[data-compile-id="0/1"]')!.classList).toContain('jp-mod-diverges');
    expect(header.querySelector('[data-collectives]')).toBeNull();
    // one page a rank (an --html export): another rank's name links to its page
    expect(header.querySelector('tr[data-rank="1"] a')!.getAttribute('href')).toBe('job.rank1.html');
    expect(header.querySelector('tr[data-rank="0"] a')).toBeNull();
    // every rank's compiles on one time axis, 0 to 3.25 s: rank 1's recompile from 2 s to the end, its lane marked
    const timeline = header.querySelector<HTMLElement>('.jp-DynamoExplorer-rankTimeline')!;
    expect(timeline.dataset.end).toBe('3.250');
    const lanes = [...timeline.querySelectorAll<HTMLElement>('.jp-DynamoExplorer-rankLane')];
    expect(
      lanes.map(l => [l.dataset.rank, l.classList.contains('jp-mod-straggler'), l.children[0].textContent])
    ).toEqual([
      ['0', false, 'rank 0'],
      ['1', true, 'rank 1 (straggler)']
    ]);
    const bar = lanes[1].querySelector<HTMLElement>('[data-compile-id="0/1"]')!;
    expect([bar.style.left, bar.style.width]).toEqual(['61.538%', '38.462%']);
    expect(bar.title).toBe('rank 1 [0/1] recompile: from 2.00 s for 1.250 s');
    expect(bar.classList).toContain('jp-mod-recompile');
    expect(lanes[0].querySelectorAll('.jp-DynamoExplorer-rankLaneBar')).toHaveLength(1);
    expect(timeline.lastElementChild!.textContent).toBe(
      "compile time on one axis: 0 to 3.25 s after the job's first compile (each rank's clock)"
    );
  });

  it('draws no time axis for ranks whose compiles have no start (a report of minor 11)', async () => {
    const report = golden('toy_example');
    report.ranks = {
      world_size: 2,
      shown_rank: 0,
      ranks: [0, 1].map(rank => ({
        rank,
        source: `rank${rank}.log`,
        compile_s: 1,
        straggler: rank === 1,
        page: rank === 1 ? 'javascript:alert(1)' : null, // a report is data: no script link
        compiles: [
          { compile_id: '0/0', status: 'ok' as const, graph: 'aa', cache: null, compile_s: 1, collectives: [] }
        ]
      })),
      divergence: null
    };
    const { root } = await render(report);
    expect(pane(root, 'header').querySelector('.jp-DynamoExplorer-ranksTable')).not.toBeNull();
    expect(pane(root, 'header').querySelector('.jp-DynamoExplorer-rankTimeline')).toBeNull();
    expect(pane(root, 'header').querySelector('.jp-DynamoExplorer-ranksTable a')).toBeNull();
  });

  it("lines up each compile's collectives rank beside rank and marks where the ranks issue different ones", async () => {
    const report = golden('toy_example');
    const op = (args: string, node: string) => ({
      op: 'all_reduce',
      shape: [4],
      dtype: 'float32',
      args,
      graph: 'aot_inference' as const,
      node
    });
    const compile = (collectives: ReturnType<typeof op>[]) => ({
      compile_id: '0/0',
      status: 'ok' as const,
      graph: 'aa',
      cache: null,
      compile_s: 1,
      collectives
    });
    report.ranks = {
      world_size: 2,
      shown_rank: 0,
      ranks: [
        {
          rank: 0,
          source: 'r0.log',
          compile_s: 1,
          straggler: false,
          compiles: [compile([op("'sum', '0'", 'all_reduce'), op("'max', '0'", 'all_reduce_1')])]
        },
        {
          rank: 1,
          source: 'r1.log',
          compile_s: 1,
          straggler: false,
          compiles: [compile([op("'max', '0'", 'all_reduce'), op("'sum', '0'", 'all_reduce_1')])]
        }
      ],
      divergence: {
        index: 0,
        compile_id: '0/0',
        kind: 'collectives',
        ranks: [1],
        summary:
          "[0/0]: collective #1 differs: rank 0 all_reduce(float32[4], 'sum', '0'), rank 1 all_reduce(float32[4], 'max', '0')",
        detail: null
      }
    };
    const { root } = await render(report);
    const header = pane(root, 'header');
    const details = header.querySelector<HTMLDetailsElement>('[data-collectives="0/0"]')!;
    expect(details.open).toBe(true);
    expect(details.querySelector('summary')!.textContent).toBe('[0/0]: 2 collectives, the ranks issue different ones');
    const rows = [...details.querySelectorAll('tr')].map(tr => [...tr.children].map(td => td.textContent));
    expect(rows).toEqual([
      ['', 'rank 0', 'rank 1'],
      ['#1', "all_reduce(float32[4], 'sum', '0')", "all_reduce(float32[4], 'max', '0')"],
      ['#2', "all_reduce(float32[4], 'max', '0')", "all_reduce(float32[4], 'sum', '0')"]
    ]);
    const marked = [...details.querySelectorAll('.jp-mod-diverges')].map(td => td.textContent);
    expect(marked).toEqual(["all_reduce(float32[4], 'max', '0')", "all_reduce(float32[4], 'sum', '0')"]);
  });
});

describe('header: another rank shown in place', () => {
  /** toy_example as rank `shown` of two, each rank's report kept by the kernel under `rank:k:N` (open_trace). */
  function rankReport(shown: number): CompileReport {
    const report = golden('toy_example');
    const row = (rank: number): RankSummary => ({
      rank,
      source: `rank${rank}.log`,
      part: `rank:k:${rank}`,
      compile_s: 1,
      straggler: false,
      compiles: [
        { compile_id: '0/0', status: 'ok', graph: 'aa', cache: null, compile_s: 1, start_s: 0, collectives: [] }
      ]
    });
    report.ranks = { world_size: 2, shown_rank: shown, ranks: [row(0), row(1)], divergence: null };
    return report;
  }

  afterEach(() => {
    setReportHost(null);
  });

  it("loads the other rank's report from the kernel and draws it in the same output", async () => {
    const asked: string[] = [];
    setReportHost({
      cellSource: () => null,
      runBelow: () => Promise.resolve(),
      loadPart: (_node, key) => {
        asked.push(key);
        return Promise.resolve({ key, part: rankReport(Number(key.split(':')[2])), error: null });
      }
    });
    const { widget, root } = await render(rankReport(0));
    const show = pane(root, 'header').querySelector<HTMLButtonElement>('tr[data-rank="1"] button')!;
    expect(show.textContent).toBe('rank 1');
    expect(pane(root, 'header').querySelector('tr[data-rank="0"] button')).toBeNull(); // the rank shown
    show.click();
    await vi.waitFor(() => expect(widget.view!.report.ranks!.shown_rank).toBe(1));
    await settled(root);
    expect(asked).toEqual(['rank:k:1']);
    const header = pane(root, 'header');
    expect(header.querySelector('tr[data-rank="1"] td')!.textContent).toBe('rank 1 (shown)');
    expect(root.querySelectorAll('[data-pane="header"]')).toHaveLength(1); // in place: one explorer, not two
    header.querySelector<HTMLButtonElement>('tr[data-rank="0"] button')!.click(); // and back
    await vi.waitFor(() => expect(widget.view!.report.ranks!.shown_rank).toBe(0));
    expect(asked).toEqual(['rank:k:1', 'rank:k:0']);
  });

  it('says what the kernel answered when it no longer keeps the rank, and how to open it without a kernel', async () => {
    setReportHost({
      cellSource: () => null,
      runBelow: () => Promise.resolve(),
      loadPart: (_node, key) => Promise.resolve({ key, part: null, error: 'this part is no longer kept in the kernel' })
    });
    const { widget, root } = await render(rankReport(0));
    const cell = pane(root, 'header').querySelector<HTMLElement>('tr[data-rank="1"] .jp-DynamoExplorer-rankShow')!;
    cell.querySelector('button')!.click();
    await vi.waitFor(() => expect(cell.dataset.state).toBe('error'));
    expect(cell.textContent).toBe('rank 1 Not shown: this part is no longer kept in the kernel');
    expect(widget.view!.report.ranks!.shown_rank).toBe(0);
    setReportHost(null); // a saved notebook, the standalone page: no kernel
    cell.querySelector('button')!.click();
    await vi.waitFor(() => expect(cell.dataset.state).toBe('no-kernel'));
    expect(cell.textContent).toBe('rank 1 No kernel to ask here: %dynamo_open PATH --rank 1 shows it.');
  });
});
