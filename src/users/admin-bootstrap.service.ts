import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { PasswordHasher } from './password-hasher';
import { UsersRepository } from './users.repository';

/**
 * First start: creates the default account `admin` (UID 1) with ADMIN_PASSWORD, or a random
 * password printed once and written to `<DATA_DIR>/admin-password` (mode 0600).
 */
@Injectable()
export class AdminBootstrapService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Bootstrap');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly users: UsersRepository,
    private readonly passwords: PasswordHasher,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (await this.users.findByUid(1)) return;
    const generated = this.config.adminPassword === undefined;
    const password = this.config.adminPassword ?? randomBytes(18).toString('base64url');
    const passwordHash = await this.passwords.hash(password);
    const created = await this.users.insertPrimaryAdmin({ username: 'admin', name: 'Administrator', email: '', admin: true, passwordHash });
    if (!created || !generated) return;
    const file = path.join(this.config.dataDir, 'admin-password');
    fs.mkdirSync(this.config.dataDir, { recursive: true });
    fs.writeFileSync(file, password + '\n', { mode: 0o600 });
    // Printed once, on purpose, so the operator can log in; also kept in a 0600 file.
    process.stdout.write(`\nCreated the default account "admin" with password: ${password}\n(also written to ${file})\n\n`);
    this.logger.log(`created the default admin account; its password is in ${file}`);
  }
}
