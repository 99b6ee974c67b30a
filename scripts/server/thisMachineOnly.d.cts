import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'

export function foreignRequest(headers: IncomingHttpHeaders, url?: string): string | null
export function refuseForeign(request: IncomingMessage, response: ServerResponse): boolean
export function refuseForeignUpgrade(request: IncomingMessage, socket: Duplex): boolean
