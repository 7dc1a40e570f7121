/**
 * CUDA graphs in words (model/cudagraphsModel.ts): each compiled graph's state with the counts it has, inductor's
 * skip reason in the engine's few words (`reason_text`, minor 15; a report before it gets the same words from
 * model/legacyWords.ts), the tooltip, and the one state of a frame's chip badge. The view's rows and badge are
 * cudagraphs.spec.ts.
 */
import { describe, expect, it } from 'vitest';
import { cudagraphState, cudagraphsOf, cudagraphText, cudagraphTitle, reasonText } from '../src/model/cudagraphsModel';
import { legacyReasonText } from '../src/model/legacyWords';
import type { CompileReport, CudaGraph, Frame } from '../src/schema';
import { CPU_REASON, cudagraphRow } from './cudagraphsFixtures';

const recorded = cudagraphRow({
  status: 'recorded',
  reason: null,
  reason_text: null,
  skipped_at: null,
  partitions: 1,
  recordings: 1,
  explanation: null
});

describe('the skip reason in words', () => {
  it("reads the engine's words, not inductor's", () => {
    expect(reasonText(cudagraphRow({}))).toBe('no CUDA device');
    // the engine's words win over anything the reason itself says
    expect(reasonText(cudagraphRow({ reason: 'skipping cudagraphs due to x', reason_text: 'the engine said' }))).toBe(
      'the engine said'
    );
    expect(reasonText(recorded)).toBe('');
  });

  it('a report before minor 15 (no reason_text) reads as it did', () => {
    const old = (reason: string | null): Pick<CudaGraph, 'reason'> => ({ reason });
    expect(reasonText(old(CPU_REASON))).toBe('no CUDA device');
    expect(legacyReasonText(old(CPU_REASON))).toBe('no CUDA device');
    expect(
      reasonText(old('skipping cudagraphs due to skipping cudagraphs due to cpu device (arg0_1). Found from : \n x'))
    ).toBe('cpu device (arg0_1)');
    expect(reasonText(old('skipping cudagraphs due to mutated inputs (1 instances)'))).toBe(
      'mutated inputs (1 instances)'
    );
    expect(reasonText(old(null))).toBe('');
  });
});

describe('a row in words', () => {
  it('says each state, with the counts it has', () => {
    expect(cudagraphText(cudagraphRow({}))).toBe('forward: skipped (no CUDA device)');
    expect(cudagraphText(cudagraphRow({ kind: 'backward', from_forward: true }))).toBe(
      'backward: skipped (with its forward: no CUDA device)'
    );
    expect(cudagraphText(recorded)).toBe('forward: recorded (1 recording)');
    expect(cudagraphText({ ...recorded, calls: 100, replays: 98, eager_runs: 1 })).toBe(
      'forward: recorded (1 recording · 98 replays / 1 eager run)'
    );
    expect(cudagraphText({ ...recorded, status: 'rerecorded', recordings: 3, partitions: 2 })).toBe(
      'forward: re-recorded (3 recordings · 2 partitions)'
    );
    expect(cudagraphText({ ...recorded, status: 'not_recorded', recordings: 0, warmups: 1 })).toBe(
      'forward: not recorded (1 warm-up only)'
    );
    expect(cudagraphText({ ...recorded, status: 'not_recorded', recordings: 0 })).toBe(
      'forward: not recorded (not called)'
    );
    const mutation = cudagraphRow({
      reason: 'skipping cudagraphs due to mutated inputs (2 instances)',
      reason_text: 'mutated inputs (2 instances)',
      skipped_at: 'run',
      calls: 5,
      replays: 0,
      eager_runs: 5
    });
    expect(cudagraphText(mutation)).toBe(
      'forward: skipped (mutated inputs (2 instances) · at run time · 0 replays / 5 eager runs)'
    );
    expect(cudagraphText(cudagraphRow({ reason: null, reason_text: null }))).toBe('forward: skipped');
  });

  it("the tooltip: inductor's words in full, the re-record reasons, the meaning, the calls", () => {
    expect(cudagraphTitle(cudagraphRow({})).split('\n')).toEqual([
      `inductor: ${CPU_REASON.trim()}`,
      'the graph runs no CUDA code: CUDA graphs record CUDA work only'
    ]);
    const again = { ...recorded, status: 'rerecorded' as const, rerecord_reasons: ['a', 'b'], calls: 3 };
    expect(cudagraphTitle(again)).toBe('recorded again because: a; b\n3 calls (--profile)');
  });
});

describe("a frame's badge", () => {
  const report = (rows: CudaGraph[]): CompileReport => ({ cudagraphs: rows }) as unknown as CompileReport;
  const frame = { compile_id: '0/0' } as Frame;

  it('skipped when any graph was, recorded when every graph was, else unsure', () => {
    const skipped = cudagraphState(report([recorded, cudagraphRow({ kind: 'backward' })]), frame);
    expect(skipped).toEqual({
      state: 'skipped',
      text: 'no CUDA graph',
      title: 'forward: recorded (1 recording)\nbackward: skipped (no CUDA device)'
    });
    const both = [recorded, { ...recorded, kind: 'backward' as const, status: 'rerecorded' as const }];
    expect(cudagraphState(report(both), frame)?.state).toBe('recorded');
    expect(cudagraphState(report(both), frame)?.text).toBe('CUDA graph');
    const unsure = cudagraphState(report([recorded, { ...recorded, status: 'not_recorded' }]), frame);
    expect([unsure?.state, unsure?.text]).toEqual(['not_recorded', 'CUDA graph?']);
  });

  it("none for a frame without rows, or a report before minor 8; only the frame's own rows", () => {
    expect(cudagraphState(report([cudagraphRow({ compile_id: '1/0' })]), frame)).toBeNull();
    expect(cudagraphState({} as CompileReport, frame)).toBeNull();
    expect(cudagraphsOf(report([cudagraphRow({ compile_id: '1/0' }), recorded]), '0/0')).toEqual([recorded]);
  });
});
