import * as fs from 'node:fs';
import * as os from 'node:os';

/** The product's SysInfo (product-notes §3.2); every field optional. */
export interface SysInfo {
  VirtSystem?: string;
  VirtRole?: string;
  CPUCount?: number;
  CPUModel?: string;
  CPUMhz?: string;
  CPUCache?: string;
  TotalMemoryMB?: number;
  SystemVersion?: string;
  Error?: string;
}

function read(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}

/** Real values of the machine this process runs on. */
export function localSysInfo(): SysInfo {
  const cpus = os.cpus();
  const cpuinfo = read('/proc/cpuinfo');
  const cache = /^cache size\s*:\s*(.+)$/m.exec(cpuinfo)?.[1] ?? '';
  const guest = /^flags\s*:.*\bhypervisor\b/m.test(cpuinfo);
  const product = read('/sys/class/dmi/id/product_name') || read('/sys/class/dmi/id/sys_vendor');
  return {
    VirtSystem: guest ? product || 'unknown' : '',
    VirtRole: guest ? 'guest' : 'host',
    CPUCount: cpus.length,
    CPUModel: cpus[0]?.model ?? '',
    CPUMhz: String(cpus[0]?.speed ?? ''),
    CPUCache: cache,
    TotalMemoryMB: Math.round(os.totalmem() / 1024 / 1024),
    SystemVersion: `${os.type()} ${os.release()}`,
  };
}
