// Pins the clock of the process: every `new Date()` and Date.now() is
// CLAWVAULT_TUI_NOW (an ISO time), so two tools run on the same input write
// the same times.
const fixed = Date.parse(process.env.CLAWVAULT_TUI_NOW);
if (Number.isNaN(fixed)) throw new Error("CLAWVAULT_TUI_NOW is not a time");
const RealDate = Date;
class PinnedDate extends RealDate {
  constructor(...args) { super(...(args.length ? args : [fixed])); }
  static now() { return fixed; }
}
PinnedDate.parse = RealDate.parse;
PinnedDate.UTC = RealDate.UTC;
globalThis.Date = PinnedDate;
