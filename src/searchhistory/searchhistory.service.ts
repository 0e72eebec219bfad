import { Injectable } from '@nestjs/common';
import { AuthContext } from '../identity/auth.types';
import { refusal } from '../common/errors/app-error';
import { UsersService } from '../users/users.service';
import { DEFAULT_HISTORY_PAGE, HistoryQueryDto, MAX_HISTORY_PAGE, SearchLogDto, toSearchLogDto } from './searchhistory.dto';
import { HistoryRow, SearchHistoryRepository } from './searchhistory.repository';

@Injectable()
export class SearchHistoryService {
  constructor(
    private readonly repo: SearchHistoryRepository,
    private readonly users: UsersService,
  ) {}

  /** Records a launched search (the caller skips NoHistory searches). */
  record(row: HistoryRow): Promise<void> {
    return this.repo.insert(row);
  }

  async list(auth: AuthContext, q: HistoryQueryDto): Promise<SearchLogDto[]> {
    if (q.admin && !auth.isAdmin) throw refusal('HISTORY_ADMIN_ONLY');
    return this.page(q.admin ? undefined : auth.uid, q);
  }

  async listForUser(auth: AuthContext, uid: number, q: HistoryQueryDto): Promise<SearchLogDto[]> {
    if (uid !== auth.uid && !auth.isAdmin) throw refusal('OWN_HISTORY_ONLY');
    if (!(await this.users.exists(uid))) throw refusal('USER_NOT_FOUND');
    return this.page(uid, q);
  }

  private async page(uid: number | undefined, q: HistoryQueryDto): Promise<SearchLogDto[]> {
    const start = q.start ?? 0;
    const end = q.end ?? start + DEFAULT_HISTORY_PAGE;
    if (end < start) throw refusal('HISTORY_RANGE_INVERTED');
    if (end - start > MAX_HISTORY_PAGE) throw refusal('HISTORY_PAGE_TOO_LARGE', MAX_HISTORY_PAGE);
    const rows = await this.repo.list({ uid, refine: q.refine, offset: start, limit: end - start });
    return rows.map(toSearchLogDto);
  }
}
