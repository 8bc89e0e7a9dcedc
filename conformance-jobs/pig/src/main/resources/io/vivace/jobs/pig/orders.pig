-- Orders of adult customers: totals per city, largest first, and the large orders in order.
users = LOAD '$users' USING PigStorage(',') AS (id:int, name:chararray, city:chararray, age:int);
orders = LOAD '$orders' USING PigStorage(',') AS (oid:int, uid:int, cents:long, day:chararray);
adults = FILTER users BY age >= 18;
joined = JOIN adults BY id, orders BY uid;
by_city = GROUP joined BY adults::city;
totals = FOREACH by_city GENERATE group AS city, COUNT(joined) AS orders, SUM(joined.orders::cents) AS cents,
    MAX(joined.orders::cents) AS largest;
ranked = ORDER totals BY cents DESC, city;
STORE ranked INTO '$out/totals' USING PigStorage(',');
large = FILTER joined BY orders::cents >= 90000L;
large_named = FOREACH large GENERATE orders::oid, adults::name, adults::city, orders::cents, orders::day;
in_order = ORDER large_named BY oid;
STORE in_order INTO '$out/large';
by_day = GROUP orders BY day;
per_day = FOREACH by_day GENERATE group, COUNT(orders), AVG(orders.cents);
STORE per_day INTO '$out/days';
