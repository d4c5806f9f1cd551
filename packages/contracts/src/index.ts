export * from './events/envelope';
export * from './events/catalogue';
export * from './http/common';
export * from './http/company';
export * from './countries/countries';
export * from './routing/route-table';
export * from './http/account';
export * from './http/incident';
