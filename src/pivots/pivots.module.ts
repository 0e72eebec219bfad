import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { GroupsModule } from '../groups/groups.module';
import { GroupsService } from '../groups/groups.service';
import { SharingModule } from '../sharing/sharing.module';
import { UsersModule } from '../users/users.module';
import { PivotEntity } from './pivot.entity';
import { PivotsController } from './pivots.controller';
import { PivotsRepository } from './pivots.repository';
import { PivotsService } from './pivots.service';

/** Actionables (the product's pivots): stored and shared here, run by the console. */
@Module({
  imports: [TypeOrmModule.forFeature([PivotEntity]), UsersModule, SharingModule.withGroups(GroupsModule, GroupsService)],
  controllers: [PivotsController],
  providers: [PivotsRepository, PivotsService],
})
export class PivotsModule {}
