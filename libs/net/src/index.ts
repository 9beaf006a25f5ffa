export * from './net-error';
export * from './address-policy';
export * from './resolver';
export * from './pin-target';
export * from './safe-request';
export * from './bounded-body';
