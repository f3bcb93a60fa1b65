/**
 * Milliseconds on a clock that only moves forward, for how long something took or waited. The host's
 * wall clock (Date.now) can be stepped back (NTP correcting a clock that ran fast, a resumed VM): a
 * pause of the run would then last as long as the step, a stall go unseen, a stale look seem fresh.
 */
export function steadyMs(): number {
	return performance.now();
}
