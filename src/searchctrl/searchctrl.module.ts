import { Module } from '@nestjs/common';
import { DashboardsModule } from '../dashboards/dashboards.module';
import { IndexerModule } from '../indexer/indexer.module';
import { LookupResourcesModule } from '../search/lookup-resources.module';
import { SearchHistoryModule } from '../searchhistory/searchhistory.module';
import { UsersModule } from '../users/users.module';
import { LaunchOrigins } from './launch-origin';
import { SearchLifecycle } from './search-lifecycle.service';
import { SearchRegistry } from './search-registry';
import { SearchTransferService } from './searchctrl-transfer.service';
import { SearchCtrlController } from './searchctrl.controller';
import { SearchCtrlRepository } from './searchctrl.repository';
import { SearchCtrlService } from './searchctrl.service';

/** Persistent searches: registry, state machine, render store, downloads, archives. */
@Module({
  imports: [IndexerModule, SearchHistoryModule, UsersModule, LookupResourcesModule, DashboardsModule],
  controllers: [SearchCtrlController],
  providers: [SearchRegistry, SearchLifecycle, SearchCtrlRepository, SearchCtrlService, SearchTransferService, LaunchOrigins],
  exports: [SearchCtrlService],
})
export class SearchCtrlModule {}
