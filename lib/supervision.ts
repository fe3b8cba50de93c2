/**
 * Processes started by `npm start` exit when their supervisor dies (even by SIGKILL), so a
 * crashed run leaves no API or worker behind holding ports. The callback shuts down cleanly.
 */
export function exitWithParent(onOrphaned: () => void): void {
  if (process.env.JOBFAIR_SUPERVISED !== '1') return;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(timer);
      onOrphaned();
    }
  }, 1000);
  timer.unref();
}
