/** The service-worker keepalive (security-requirements.md L3). */

/** Calls an extension API every 20 s while work is in flight, so the worker is not stopped mid-stream (L3). */
export class Keepalive {
  private count = 0;
  private timer: ReturnType<typeof setInterval> | undefined;
  constructor(
    private readonly ping: () => void,
    private readonly everyMs = 20_000,
  ) {}
  start(): void {
    if (this.count++ === 0) this.timer = setInterval(this.ping, this.everyMs);
  }
  stop(): void {
    if (this.count === 0) return;
    if (--this.count === 0 && this.timer !== undefined) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
  get active(): boolean {
    return this.count > 0;
  }
}
