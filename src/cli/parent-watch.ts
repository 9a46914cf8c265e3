/**
 * Ending with the process that started this one. npx does not always pass a signal on (not
 * when it is killed with SIGKILL, nor on every npm version), and it runs the command through
 * `sh -c`, so the command's parent is a shell that outlives npx: when the parent is a shell,
 * its own parent is watched too.
 * @module
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { basename } from "node:path";

const SHELLS = new Set(["sh", "bash", "dash", "zsh", "ash", "ksh"]);

/** A process's parent and its command name, from /proc (Linux) or `ps`; `undefined` when neither answers. */
function processInfo(pid: number): { ppid: number; command: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const close = stat.lastIndexOf(")");
    const command = stat.slice(stat.indexOf("(") + 1, close);
    const ppid = Number(stat.slice(close + 2).split(" ")[1]);
    return Number.isInteger(ppid) ? { ppid, command } : undefined;
  } catch {
    if (process.platform === "win32") return undefined;
    const ps = spawnSync("ps", ["-o", "ppid=,comm=", "-p", String(pid)], { encoding: "utf8", timeout: 2000 });
    const match = /^\s*(\d+)\s+(.+?)\s*$/.exec(ps.stdout ?? "");
    return match ? { ppid: Number(match[1]), command: basename(match[2] as string) } : undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Calls `gone` once, within about a second, after the parent goes away, or the shell's parent
 * when the parent is a shell (`sh -c`, as npx runs a command). The timer does not keep the
 * process alive.
 */
export function whenParentGoes(gone: () => void): void {
  const parent = process.ppid;
  const info = processInfo(parent);
  const grandparent = info !== undefined && SHELLS.has(info.command) && info.ppid > 1 ? info.ppid : undefined;
  const timer = setInterval(() => {
    if (process.ppid === parent && (grandparent === undefined || alive(grandparent))) return;
    clearInterval(timer);
    gone();
  }, 1000);
  timer.unref();
}
