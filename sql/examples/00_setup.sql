-- The small tables every example in this folder runs against. Run this first (the test does,
-- statement by statement, with spark.sql). Selectors are SQL strings here, so each quote in a
-- selector is doubled once more: the selector  customer LIKE 'O''%'  is written 'customer LIKE ''O''''%'''.

CREATE OR REPLACE TEMPORARY VIEW messages AS
SELECT * FROM VALUES
  ('ID:1', 1000L, 'car',   4, 'PERSISTENT',     'blue',  3000L, 'Acme Corp', false),
  ('ID:2', 1001L, 'car',   4, 'PERSISTENT',     'blue',  1200L, 'O''Brien',  NULL),
  ('ID:3', 1002L, 'truck', 9, 'NON_PERSISTENT', 'red',   9000L, 'O''Neill',  true),
  ('ID:4', 1003L, 'bike',  1, 'PERSISTENT',     NULL,    12L,   NULL,        false),
  ('ID:5', 1004L, 'car',   7, 'PERSISTENT',     'blue',  NULL,  'Zoë Dubois', NULL),
  ('ID:6', 1005L, 'order', 4, 'PERSISTENT',     'green', 40L,   'Initech',   false)
AS t(JMSMessageID, JMSTimestamp, JMSType, JMSPriority, JMSDeliveryMode, color, weight, customer, urgent);

CREATE OR REPLACE TEMPORARY VIEW subscriptions AS
SELECT * FROM VALUES
  ('blue-heavy', 'color = ''blue'' AND weight > 2500',    true),
  ('irish',      'customer LIKE ''O''''%''',              true),
  ('urgent',     'urgent OR JMSPriority >= 7',            false),
  ('broken',     'color = ''blue'' AND AND weight > 2500', true)
AS t(name, selector, durable);
