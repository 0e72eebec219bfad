import * as fs from 'node:fs';
import rootTeardown from '../setup/global-teardown';

export default async function globalTeardown(): Promise<void> {
  if (process.env.FAULT_SERVICE_BUILD && !process.env.FAULT_PREBUILT) fs.rmSync(process.env.FAULT_SERVICE_BUILD, { recursive: true, force: true });
  await rootTeardown();
}
