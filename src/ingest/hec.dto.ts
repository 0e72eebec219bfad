import { ApiProperty } from '@nestjs/swagger';

export class HecHealthDto {
  @ApiProperty({ example: 'HEC is healthy' }) text: string;
  @ApiProperty({ example: 17 }) code: number;
}

export class HecSuccessDto {
  @ApiProperty({ example: 'Success' }) text: string;
  @ApiProperty({ example: 0 }) code: number;
  @ApiProperty({ example: 0 }) 'invalid-event-number': number;
  @ApiProperty({
    oneOf: [
      { type: 'integer', minimum: 0 },
      { type: 'string', enum: [''] },
    ],
    description: 'the ack ID when the request names a channel, else ""',
  })
  ackID: number | '';
}

export class HecAckStatusDto {
  @ApiProperty({ type: 'object', additionalProperties: { type: 'boolean' }, description: 'ack ID -> its batch is committed', example: { '0': true, '1': false } })
  acks: Record<string, boolean>;
}
