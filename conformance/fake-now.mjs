// Freezes Date at $FAKE_NOW, so that the reference tools measure ages from
// the clock the demo workspace was generated with (a running clock would
// add their start-up time, and ages round across minute boundaries).
// Loaded with `node --import ./fake-now.mjs`.
const fixed = Date.parse(process.env.FAKE_NOW ?? "");
if (Number.isFinite(fixed)) {
  const RealDate = Date;
  globalThis.Date = class extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(fixed);
      else super(...args);
    }
    static now() {
      return fixed;
    }
  };
}
