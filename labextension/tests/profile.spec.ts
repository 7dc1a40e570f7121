/**
 * The "Why is it slow" pane (issue 12 items 1-3) in the real renderer, on the golden toy_profile with known times
 * (profileFixtures.ts): the split bar's widths, the speedup and payback lines, the ranked graph table (a row opens
 * its graph in the FX pane), the eager row's link to the break's line, the coverage numbers, sorting by a column,
 * the shown frame's rows marked, the frames pane's "×N hits" badges; reports without a profile (a hint), with only
 * a baseline, with GPU kernels (schema minor 8: a graph's first call apart from the calls after it, the device
 * time no graph ran), and report strings kept text. The model is profileModel.spec.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { noProfileText } from '../src/model/profileModel';
import { golden, pane, render, settled } from './helpers';
import { onGpu, timed } from './profileFixtures';

afterEach(() => {
  document.body.textContent = '';
});

describe('profile pane', () => {
  it('sits under the header, full width, titled "Why is it slow"', async () => {
    const { root } = await render(timed());
    const el = pane(root, 'profile');
    expect(el.previousElementSibling).toBe(pane(root, 'header'));
    expect(el.parentElement).toBe(root);
    expect(el.querySelector('.jp-DynamoExplorer-paneTitleText')!.textContent).toBe('Why is it slow');
  });

  it('draws the run split as one bar of three parts sized by their shares, with a legend', async () => {
    const { root } = await render(timed());
    const split = pane(root, 'profile').querySelector<HTMLElement>('[data-section="split"]')!;
    const parts = Array.from(split.querySelectorAll<HTMLElement>('.jp-DynamoExplorer-splitPart'));
    expect(parts.map(p => [p.dataset.part, p.style.width])).toEqual([
      ['compiled', '3%'],
      ['eager', '2%'],
      ['compile', '95%']
    ]);
    expect(split.querySelector('[role="img"]')!.getAttribute('aria-label')).toContain('compile 950 ms (95%)');
    const legend = Array.from(split.querySelectorAll('li'), li => li.textContent);
    expect(legend).toEqual([
      'compiled 30.0 ms (3.0%)',
      'eager 20.0 ms (2.0%) incl. 10 cache lookups, 0.50 ms',
      'compile 950 ms (95%)'
    ]);
    expect(split.textContent).toContain('The profiled run: 1.00 s');
  });

  it('says the speedup over eager, when the compile pays back, and the speedup per function', async () => {
    const { root, widget } = await render(timed());
    const speedup = pane(root, 'profile').querySelector<HTMLElement>('[data-section="speedup"]')!;
    expect(speedup.dataset.verdict).toBe('faster');
    expect(speedup.querySelector('.jp-DynamoExplorer-speedupLine')!.textContent).toBe(
      'compiled run 4.00 ms vs eager 10.0 ms: 2.50× (compile 600 ms not included)'
    );
    expect(speedup.querySelector<HTMLElement>('[data-runs]')!.dataset.runs).toBe('100');
    const fn = speedup.querySelector('[data-section="functions"] tbody tr')!;
    expect(Array.from(fn.querySelectorAll('td'), td => td.textContent)).toEqual([
      'toy_example[0/0][1/0][2/0]',
      '5',
      '9.00 ms',
      '3.50 ms',
      '2.57×'
    ]);
    // the function's frame links select the frame
    fn.querySelector<HTMLElement>('[data-frame="2/0"]')!.click();
    await settled(root);
    expect(widget.view!.frame!.compile_id).toBe('2/0');
  });

  it('ranks the graphs by time, and a click on a row opens its graph in the FX pane', async () => {
    const { root, widget } = await render(timed());
    const table = pane(root, 'profile').querySelector<HTMLElement>('[data-section="graphs"]')!;
    const rows = Array.from(table.querySelectorAll<HTMLElement>('tbody tr'));
    expect(rows.map(r => r.dataset.graphId)).toEqual(['1', '0', '2']);
    expect(Array.from(rows[0].querySelectorAll('td'), td => td.textContent)).toEqual([
      '1',
      '[1/0]graph 1',
      '4',
      '20.0 ms',
      '5.00 ms',
      '67%',
      '2',
      '5.00 ms',
      '3× 5.00 ms'
    ]);
    // no GPU: no device or kernel columns
    expect(Array.from(table.querySelectorAll('th'), th => th.textContent)).toEqual([
      '#',
      'graph',
      'calls',
      'total',
      'mean',
      '% compiled',
      'ops/call',
      'first call',
      'then'
    ]);
    const fx = pane(root, 'fx-graph');
    expect(widget.view!.frame!.compile_id).toBe('0/0');
    rows[0].querySelectorAll('td')[3].dispatchEvent(new MouseEvent('click', { bubbles: true }));
    await settled(root);
    expect(fx.dataset.graphId).toBe('1');
    expect(widget.view!.frame!.compile_id).toBe('1/0');
    // the graph link does the same from the keyboard (a button)
    const link = rows[2].querySelector<HTMLButtonElement>('button[data-graph-id="2"]')!;
    expect(link.tagName).toBe('BUTTON');
    link.click();
    await settled(root);
    expect(fx.dataset.graphId).toBe('2');
    // the rows of the frame shown now are marked
    expect(rows.map(r => r.classList.contains('jp-mod-current'))).toEqual([false, false, true]);
  });

  it('attributes eager time by cause, and the graph break row shows its line', async () => {
    const { root, widget } = await render(timed());
    await widget.view!.selectFrame('2/0');
    await settled(root);
    const table = pane(root, 'profile').querySelector<HTMLElement>('[data-section="eager"]')!;
    const rows = Array.from(table.querySelectorAll<HTMLElement>('tbody tr'));
    expect(rows.map(r => r.dataset.cause)).toEqual(['graph_break', 'outside', 'frame', 'frame']);
    const cells = Array.from(rows[0].querySelectorAll('td'), td => td.textContent);
    expect(cells).toEqual([
      '1',
      'graph_break',
      'GB0170 Data-dependent branchingline 8[0/0]',
      '5',
      '12.0 ms',
      '60%',
      '5'
    ]);
    rows[0].querySelector<HTMLElement>('[data-jump="8"]')!.click();
    await settled(root);
    expect(widget.view!.frame!.compile_id).toBe('0/0');
    expect(pane(root, 'source').querySelector('[data-line="8"]')!.classList.contains('jp-mod-selected')).toBe(true);
  });

  it("shows Update 5's coverage numbers and cache entries", async () => {
    const { root } = await render(timed());
    const profile = pane(root, 'profile');
    const coverage = profile.querySelector<HTMLElement>('[data-section="coverage"]')!;
    expect(coverage.querySelector('h3')!.textContent).toBe('Captured-op coverage (3 graphs ran)');
    expect(Array.from(coverage.querySelectorAll('th'), th => th.textContent)).toEqual([
      'scope',
      'graph_calls',
      'captured_ops',
      'total_ops',
      'pct_ops',
      'pct_time'
    ]);
    const rows = Array.from(coverage.querySelectorAll('tbody tr'), tr =>
      Array.from(tr.querySelectorAll('td'), td => td.textContent)
    );
    expect(rows[0]).toEqual(['cell', '10', '34', '49', '69%', '60%']);
    expect(rows[1]).toEqual(['[0/0] toy_example', '5', '25', '30', '83%', '0%']);
    expect(rows).toHaveLength(4);
    const entries = profile.querySelector<HTMLElement>('[data-section="entries"]')!;
    const first = Array.from(entries.querySelectorAll('tbody tr')[1].querySelectorAll('td'), td => td.textContent);
    expect(first).toEqual([
      '[1/0] toy_example after line 8',
      '4',
      '2.00 ms',
      '1.50 ms',
      '1.00 ms',
      '0.50 ms',
      '0',
      '0.05 ms'
    ]);
    expect(profile.querySelector('[data-section="backward"]')).toBeNull();
    const method = profile.querySelector<HTMLDetailsElement>('details[data-section="method"]')!;
    expect(method.open).toBe(false);
    expect(method.querySelector('[data-method="profile"]')!.textContent).toContain('torch.profiler');
    expect(method.querySelector('[data-method="eager_baseline"]')!.textContent).toContain('The cell ran twice');
  });

  it('splits the backward into compiled graphs and eager nodes when one ran', async () => {
    const report = timed();
    report.profile!.backward = { compiled_calls: 4, compiled_ms: 1.2, eager_nodes: 6, eager_ms: 0.5 };
    const { root } = await render(report);
    const backward = pane(root, 'profile').querySelector<HTMLElement>('[data-section="backward"]')!;
    expect(Array.from(backward.querySelectorAll('li'), li => li.textContent)).toEqual([
      'compiled 4 calls, 1.20 ms',
      'eager 6 nodes, 0.50 ms'
    ]);
  });

  it('sorts a table by a click on a column head, again to reverse', async () => {
    const { root } = await render(timed());
    const table = pane(root, 'profile').querySelector<HTMLElement>('[data-section="graphs"]')!;
    const order = (): string[] => Array.from(table.querySelectorAll<HTMLElement>('tbody tr'), r => r.dataset.graphId!);
    const head = Array.from(table.querySelectorAll('th')).find(th => th.textContent === 'calls')!;
    head.querySelector('button')!.click();
    expect(order()).toEqual(['0', '1', '2']); // 5, 4, 1 calls
    expect(head.getAttribute('aria-sort')).toBe('descending');
    head.querySelector('button')!.click();
    expect(order()).toEqual(['2', '1', '0']);
    expect(head.getAttribute('aria-sort')).toBe('ascending');
  });

  it('badges each frame of the navigator with its hits', async () => {
    const { root } = await render(timed());
    const badges = Array.from(pane(root, 'frames').querySelectorAll<HTMLElement>('.jp-DynamoExplorer-hits'));
    expect(badges.map(b => [b.closest<HTMLElement>('[data-compile-id]')!.dataset.compileId, b.textContent])).toEqual([
      ['0/0', '×5 hits'],
      ['1/0', '×4 hits'],
      ['2/0', '×1 hit']
    ]);
  });

  it('without a profile: one line on how to get one, no tables, no badges', async () => {
    const { root } = await render(golden('toy_example'));
    const el = pane(root, 'profile');
    expect(el.querySelector('[data-hint="profile"]')!.textContent).toBe(noProfileText(golden('toy_example')));
    expect(el.querySelectorAll('table')).toHaveLength(0);
    expect(el.querySelector('details')).toBeNull();
    expect(pane(root, 'frames').querySelector('.jp-DynamoExplorer-hits')).toBeNull();
  });

  it('with only an eager baseline: the speedup and the hint for --profile', async () => {
    const report = timed();
    report.profile = null;
    const { root } = await render(report);
    const el = pane(root, 'profile');
    expect(el.querySelector('[data-section="speedup"]')).not.toBeNull();
    expect(el.querySelector('[data-section="split"]')).toBeNull();
    expect(el.querySelector('[data-hint="profile"]')!.textContent).not.toContain('--compare-eager');
    expect(el.querySelector('[data-method="eager_baseline"]')).not.toBeNull();
  });

  it('when compiled is slower than eager, says the compile never pays back', async () => {
    const report = timed();
    Object.assign(report.eager_baseline!, { eager_ms: 3, compiled_ms: 4, speedup: 0.75 });
    const { root } = await render(report);
    const speedup = pane(root, 'profile').querySelector<HTMLElement>('[data-section="speedup"]')!;
    expect(speedup.dataset.verdict).toBe('not-faster');
    expect(speedup.querySelector('[data-runs]')!.textContent).toContain('never pays back');
  });

  it('on a GPU: device time and the kernels of each graph, the most time first', async () => {
    const report = timed();
    const g = report.profile!.graphs.find(x => x.graph_id === 1)!;
    g.device_ms = 3.5;
    g.kernels = [
      { name: 'triton_poi_fused_mul_0', calls: 4, device_ms: 0.5 },
      { name: 'triton_poi_fused_abs_add_div_1', calls: 4, device_ms: 3 }
    ];
    report.profile!.device = 'cuda';
    const { root } = await render(report);
    const table = pane(root, 'profile').querySelector<HTMLElement>('[data-section="graphs"]')!;
    const heads = Array.from(table.querySelectorAll('th'), th => th.textContent);
    expect(heads.slice(-2)).toEqual(['device', 'kernels']);
    const first = table.querySelector('tbody tr')!;
    expect(first.querySelectorAll('td')[heads.indexOf('device')].textContent).toBe('3.50 ms');
    expect(Array.from(first.querySelectorAll('[data-kernel]'), k => k.textContent)).toEqual([
      'triton_poi_fused_abs_add_div_1 · 4× · 3.00 ms',
      'triton_poi_fused_mul_0 · 4× · 0.50 ms'
    ]);
    expect(first.querySelector('summary')!.textContent).toBe('2 kernels');
    expect(table.querySelectorAll('tbody tr')[1].querySelectorAll('td')[heads.indexOf('kernels')].textContent).toBe(
      '–'
    );
    expect(pane(root, 'profile').textContent).toContain('(with CUDA kernel times)');
  });

  it("on a GPU: each graph's first call apart from the calls after it, and the device time no graph ran", async () => {
    const { root } = await render(onGpu());
    const el = pane(root, 'profile');
    const table = el.querySelector<HTMLElement>('[data-section="graphs"]')!;
    const heads = Array.from(table.querySelectorAll('th'), th => th.textContent);
    expect(heads.slice(-4)).toEqual(['first call', 'then', 'device', 'kernels']);
    const row = table.querySelector<HTMLElement>('tbody tr[data-graph-id="1"]')!;
    const cells = row.querySelectorAll('td');
    expect(cells[heads.indexOf('first call')].textContent).toBe('80.0 ms (70.0 ms compile)');
    expect(cells[heads.indexOf('first call')].querySelector<HTMLElement>('[data-first-call]')!.title).toContain(
      '4,900 kernels, 70.4 ms on the device'
    );
    expect(cells[heads.indexOf('then')].textContent).toBe('3× 3.00 ms');
    const once = table.querySelector<HTMLElement>('tbody tr[data-graph-id="2"]')!;
    expect(once.querySelectorAll('td')[heads.indexOf('then')].textContent).toBe('–');
    const device = el.querySelector<HTMLElement>('[data-section="device"]')!;
    expect(device.querySelector('[data-part="eager"]')!.textContent).toBe(
      'eager 0.02 ms (1 kernel launched outside any graph call)'
    );
    expect(device.querySelector('[data-part="compile"]')!.textContent).toContain('70.4 ms');
    expect(Array.from(device.querySelectorAll('[data-kernel]'), k => k.textContent)).toEqual([
      'normal_kernel · 1× · 0.02 ms'
    ]);
    // the CPU (the golden): no device section
    const cpu = await render(timed());
    expect(pane(cpu.root, 'profile').querySelector('[data-section="device"]')).toBeNull();
  });

  it("keeps the report's strings as text", async () => {
    const report = timed();
    report.frames[0].graph_breaks[0].gb_type = '<img src=x onerror="window.pwned=1">';
    report.eager_baseline!.functions[0].name = '<script>window.pwned=1</script>';
    const { root } = await render(report);
    const el = pane(root, 'profile');
    expect(el.querySelector('img, script')).toBeNull();
    expect(el.textContent).toContain('<img src=x onerror="window.pwned=1">');
    expect(el.textContent).toContain('<script>window.pwned=1</script>');
  });
});
