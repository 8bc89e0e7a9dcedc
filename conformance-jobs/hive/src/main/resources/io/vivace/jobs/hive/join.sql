-- HiBench's sql/join on Hive: pages ranked against a year of visits, revenue per source IP.
USE DEFAULT;
SET hive.auto.convert.join=false;
CREATE EXTERNAL TABLE rankings_join_input (pageURL STRING, pageRank INT, avgDuration INT) ROW FORMAT SERDE 'org.apache.hadoop.hive.serde2.OpenCSVSerde' STORED AS SEQUENCEFILE LOCATION '${hivevar:input}/rankings';
CREATE EXTERNAL TABLE uservisits_join_input (sourceIP STRING, destURL STRING, visitDate STRING, adRevenue DOUBLE, userAgent STRING, countryCode STRING, languageCode STRING, searchWord STRING, duration INT) ROW FORMAT SERDE 'org.apache.hadoop.hive.serde2.OpenCSVSerde' STORED AS SEQUENCEFILE LOCATION '${hivevar:input}/uservisits';
CREATE EXTERNAL TABLE rankings_uservisits_join (sourceIP STRING, avgPageRank DOUBLE, totalRevenue DOUBLE) STORED AS SEQUENCEFILE LOCATION '${hivevar:output}/rankings_uservisits_join';
INSERT OVERWRITE TABLE rankings_uservisits_join SELECT sourceIP, avg(pageRank), sum(adRevenue) AS totalRevenue FROM rankings_join_input R JOIN (SELECT sourceIP, destURL, adRevenue FROM uservisits_join_input UV WHERE (datediff(UV.visitDate, '1999-01-01') >= 0 AND datediff(UV.visitDate, '2000-01-01') <= 0)) NUV ON (R.pageURL = NUV.destURL) GROUP BY sourceIP ORDER BY totalRevenue DESC;
