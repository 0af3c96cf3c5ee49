-- route() in queue mode: every message exactly once, round-robin among the subscriptions that
-- match it (in JMSTimestamp order); a message none matches stays on the queue (subscription NULL,
-- outcome 'remains_queued' under the jms rules).
-- setup: register_route(spark, "queued", "messages", "subscriptions", mode="queue")
SELECT JMSMessageID, subscription
FROM queued
ORDER BY JMSMessageID;
-- result:
-- JMSMessageID | subscription
-- ID:1 | blue-heavy
-- ID:2 | irish
-- ID:3 | irish
-- ID:4 | NULL
-- ID:5 | urgent
-- ID:6 | NULL
