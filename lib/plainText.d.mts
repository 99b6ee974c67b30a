export declare const codePointName: (character: string) => string
export declare const TEXT_MOST: { readonly title: 300; readonly description: 2000 }
export declare const characterCount: (text: string) => number
export declare const DIRECTION_CONTROL: RegExp
export declare const DIRECTION_REFERENCE: RegExp
export declare function textFieldProblem(field: string, value: unknown): string | null
export declare function directionControlIn(value: unknown): string | null
export declare const DIRECTION_CONTROL_FIX: string
export declare function tooLong(field: string, value: unknown): string | null
