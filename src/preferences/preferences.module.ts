import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UsersModule } from '../users/users.module';
import { UserPreferenceEntity } from './preference.entity';
import { PreferencesController } from './preferences.controller';
import { PreferencesRepository } from './preferences.repository';
import { PreferencesService } from './preferences.service';

/** User preferences (contract: User preferences). Imported by AppModule before UsersModule. */
@Module({
  imports: [TypeOrmModule.forFeature([UserPreferenceEntity]), UsersModule],
  controllers: [PreferencesController],
  providers: [PreferencesRepository, PreferencesService],
  exports: [PreferencesService],
})
export class PreferencesModule {}
