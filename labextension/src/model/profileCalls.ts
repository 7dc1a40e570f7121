/**
 * The calls of a graph and the device time of a profile (schema minor 8), in words for the profile pane and its
 * tests: a graph's first call, which holds its lazy compile, loading its code and inductor's autotuning, apart
 * from the calls after it (the steady state); and on a GPU the device time no graph's own run launched (eager
 * kernels, compile work's).
 */
import { formatMs } from './breakList';
import { num, sortRows } from './profileModel';
import type { CallsProfile, GraphProfile, KernelProfile, Profile } from '../schema';

/** `1 kernel`, `4,900 kernels`. */
function kernelCount(n: number): string {
  return `${n.toLocaleString('en-US')} kernel${n === 1 ? '' : 's'}`;
}

/** A `CallsProfile`, or null (a report before schema minor 8 has none). */
function callsOf(calls: CallsProfile | null | undefined): CallsProfile | null {
  return calls && typeof calls === 'object' && num(calls.calls) > 0 ? calls : null;
}

/**
 * A graph's first call, which holds its lazy compile, loading its code and inductor's autotuning:
 * `81.0 ms host, 70.4 ms of it compile work (4,900 kernels, 70.4 ms on the device); its own 2 kernels 0.40 ms`;
 * null for a report without it.
 */
export function firstCallText(graph: GraphProfile): string | null {
  const first = callsOf(graph.first_call);
  if (!first) {
    return null;
  }
  let text = `${formatMs(num(first.host_ms))} host`;
  if (num(first.compile_ms) > 0 || num(first.compile_kernels) > 0) {
    text += `, ${formatMs(num(first.compile_ms))} of it compile work`;
    if (first.compile_device_ms !== null && num(first.compile_kernels) > 0) {
      text += ` (${kernelCount(num(first.compile_kernels))}, ${formatMs(num(first.compile_device_ms))} on the device)`;
    }
  }
  if (first.device_ms !== null) {
    text += `; its own ${kernelCount(num(first.kernels))} ${formatMs(num(first.device_ms))} on the device`;
  }
  return text;
}

/**
 * The calls after a graph's first (the steady state): `4 calls, mean 3.10 ms (device 1.20 ms per call)`; null when
 * it ran once (or for a report without it).
 */
export function steadyText(graph: GraphProfile): string | null {
  const steady = callsOf(graph.steady);
  if (!steady) {
    return null;
  }
  const calls = num(steady.calls);
  const mean = (num(steady.host_ms) - num(steady.compile_ms)) / calls;
  let text = `${calls} call${calls === 1 ? '' : 's'}, mean ${formatMs(mean)}`;
  if (steady.device_ms !== null) {
    text += ` (device ${formatMs(num(steady.device_ms) / calls)} per call)`;
  }
  if (num(steady.compile_ms) > 0) {
    text += `; ${formatMs(num(steady.compile_ms))} compile work in them`;
  }
  return text;
}

/**
 * The device time no graph's own run launched (schema minor 8, a GPU): eager kernels (launched outside any
 * graph call: the cell's own CUDA ops) and the kernels of compile work (inductor's autotuning); null without
 * device figures.
 */
export function deviceParts(profile: Profile): { eager: string; compile: string; kernels: KernelProfile[] } | null {
  if (
    profile.device !== 'cuda' ||
    profile.eager_device_ms === null ||
    profile.eager_device_ms === undefined ||
    profile.compile_device_ms === null ||
    profile.compile_device_ms === undefined
  ) {
    return null;
  }
  const kernels = sortRows(profile.eager_kernels ?? [], k => num(k.device_ms), 'desc');
  const launches = kernels.reduce((sum, k) => sum + num(k.calls), 0);
  return {
    eager: `eager ${formatMs(num(profile.eager_device_ms))} (${kernelCount(launches)} launched outside any graph call)`,
    compile: `compile work ${formatMs(num(profile.compile_device_ms))} (kernels its autotuning launched)`,
    kernels
  };
}
