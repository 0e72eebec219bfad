import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module';
import { SearchHistoryController } from './searchhistory.controller';
import { SearchHistoryRepository } from './searchhistory.repository';
import { SearchHistoryService } from './searchhistory.service';

@Module({
  imports: [UsersModule],
  controllers: [SearchHistoryController],
  providers: [SearchHistoryRepository, SearchHistoryService],
  exports: [SearchHistoryService],
})
export class SearchHistoryModule {}
