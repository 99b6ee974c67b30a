/** The parts of CloudFront's Lambda@Edge viewer-request event and result that the authorizer uses. */
export interface CloudFrontHeaders {
  [name: string]: Array<{ key?: string; value: string }>
}

export interface CloudFrontRequest {
  clientIp: string
  method: string
  uri: string
  querystring: string
  headers: CloudFrontHeaders
}

export interface CloudFrontRequestEvent {
  Records: Array<{ cf: { config: { eventType: string; distributionId?: string }; request: CloudFrontRequest } }>
}

export interface CloudFrontResultResponse {
  status: string
  statusDescription?: string
  headers?: CloudFrontHeaders
  body?: string
}

export type CloudFrontRequestResult = CloudFrontRequest | CloudFrontResultResponse
