import { DynamicModule, MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessLogMiddleware } from './common/logging/access-log.middleware';
import { LoggingModule } from './common/logging/app-logger';
import { IdentityModule } from './identity/identity.module';
import { LoginModule } from './login/login.module';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { typeOrmOptions } from './database/data-source';
import { GroupsModule } from './groups/groups.module';
import { InfoModule } from './info/info.module';
import { UsersModule } from './users/users.module';
import { SessionsModule } from './sessions/sessions.module';
import { TokensModule } from './tokens/tokens.module';
import { PreferencesModule } from './preferences/preferences.module';
import { ResourcesModule } from './resources/resources.module';
import { DashboardsModule } from './dashboards/dashboards.module';
import { LibraryModule } from './library/library.module';
import { MacrosModule } from './macros/macros.module';
import { AutoextractorsModule } from './autoextractors/autoextractors.module';
import { TemplatesModule } from './templates/templates.module';
import { PlaybooksModule } from './playbooks/playbooks.module';
import { PivotsModule } from './pivots/pivots.module';
import { ScheduledSearchesModule } from './scheduledsearches/scheduledsearches.module';
import { FilesModule } from './files/files.module';
import { IngestModule } from './ingest/ingest.module';
import { IndexerModule } from './indexer/indexer.module';
import { SearchModule } from './search/search.module';
import { NotificationsModule } from './notifications/notifications.module';
import { StatsModule } from './stats/stats.module';
import { WsModule } from './ws/ws.module';
import { SearchCtrlModule } from './searchctrl/searchctrl.module';
import { SearchHistoryModule } from './searchhistory/searchhistory.module';

/** Feature modules; order matters only where a literal path would otherwise match an `:id` route. */
export const FEATURE_MODULES = [
  IdentityModule,
  LoginModule,
  TokensModule,
  // Before UsersModule: GET /api/users/preferences must not be taken for GET /api/users/:id.
  PreferencesModule,
  GroupsModule,
  UsersModule,
  SessionsModule,
  InfoModule,
  ResourcesModule,
  DashboardsModule,
  LibraryModule,
  MacrosModule,
  AutoextractorsModule,
  TemplatesModule,
  PlaybooksModule,
  PivotsModule,
  ScheduledSearchesModule,
  FilesModule,
  IndexerModule,
  IngestModule,
  SearchModule,
  SearchCtrlModule,
  SearchHistoryModule,
  NotificationsModule,
  StatsModule,
  WsModule,
];

@Module({})
export class AppModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(AccessLogMiddleware).forRoutes({ path: '{/*splat}', method: RequestMethod.ALL });
  }

  static forRoot(config: AppConfig & { databaseUrl: string }): DynamicModule {
    return {
      module: AppModule,
      imports: [ConfigModule.forRoot(config), LoggingModule.forRoot(config.logLevel), TypeOrmModule.forRoot(typeOrmOptions(config.databaseUrl, config)), ...FEATURE_MODULES],
    };
  }
}
