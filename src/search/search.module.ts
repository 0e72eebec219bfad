import { Module } from '@nestjs/common';

/** Placeholder until the feature lands; registered in AppModule so the feature needs no wiring. */
@Module({})
export class SearchModule {}
